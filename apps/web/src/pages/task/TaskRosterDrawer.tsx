import { useEffect, useState } from 'react';
import { App as AntApp, Button, Drawer, Input, Modal, Select, Space, Switch, Typography } from 'antd';
import { KeyOutlined, PrinterOutlined } from '@ant-design/icons';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ActionOutput, TaskRow } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { Can, useAccess } from '../../components/access';
import CodeSlips, { type CodeSlip } from '../../components/code-slips/CodeSlips';
import { DetailTable, ErrorState, useConfirmCall } from '../../components/list';
import { respondentLink } from '../../lib/respondent';
import { ProgressTag, TASK_KEYS } from './task-ui';
import { useT } from '../../i18n/useT';

const ROSTER = 'as.m.assess.getAssessTaskRoster';
const PIN = 'as.m.assess.getAssessTaskPin';
type Person = ActionOutput<typeof ROSTER>['rows'][number];
const PAGE_SIZE = 50;

/** Every person of the filter (pages of 200), for the slips of a class. */
async function allPersons(input: { taskid: string; teamid?: string }): Promise<Person[]> {
  const out: Person[] = [];
  for (let page = 1; ; page++) {
    const r = await call(ROSTER, { ...input, page, pageSize: 200 });
    out.push(...r.rows);
    if (out.length >= r.total || !r.rows.length) return out;
  }
}

/**
 * The persons of a task with their personal codes and state: give codes to members added to the
 * rosters since, take off a person who has not started, and print the codes of a class as slips.
 */
export default function TaskRosterDrawer({ task, onClose }: { task: TaskRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const k = useT('task.task');
  const { can } = useAccess();
  const confirm = useConfirmCall();
  const { modal } = AntApp.useApp();
  const [teamid, setTeamid] = useState<string | undefined>();
  const [realname, setRealname] = useState('');
  const [page, setPage] = useState(1);
  const [slips, setSlips] = useState<CodeSlip[] | null>(null);
  const [printing, setPrinting] = useState(false);
  useEffect(() => {
    setTeamid(undefined);
    setRealname('');
    setPage(1);
  }, [task?.taskid]);

  const input = { taskid: task?.taskid ?? '', teamid, realname: realname.trim() || undefined, page, pageSize: PAGE_SIZE };
  const q = useAction(ROSTER, input, { enabled: !!task, placeholderData: keepPreviousData });
  const ended = task?.status === 'ended';
  const pinQ = useAction(PIN, { taskid: task?.taskid ?? '' }, { enabled: !!task });
  const pinOn = pinQ.data?.pinrequired === 1;

  const issue = () =>
    void confirm({
      action: 'as.m.assess.insertAssessTeamRosterTask',
      input: { taskid: task!.taskid },
      content: k('issueConfirm'),
      success: false,
      invalidates: TASK_KEYS,
      then: (r) => modal.info({ title: k('issueCodes'), content: k('issued', { issued: r.issued, total: r.total }), okText: t('common.ok') }),
    });
  const remove = (p: Person) =>
    void confirm({
      action: 'as.m.assess.deleteAssessTaskCUser',
      input: { taskid: task!.taskid, cusercode: p.cusercode },
      content: k('removePersonConfirm', { name: p.realname }),
      success: t('common.deleted'),
      danger: true,
      invalidates: TASK_KEYS,
    });
  const switchPin = (on: boolean) =>
    void confirm({ action: 'as.m.assess.updateAssessTaskPin', input: { taskid: task!.taskid, pinrequired: on ? 1 : 0 }, direct: true, invalidates: [PIN] });
  /**
   * Slips of the filter (or of one person). With PINs on, new PINs are drawn for them first: only a
   * hash is kept, so the slip is the one place a PIN is shown, and a reprint is a new PIN.
   */
  const print = async (one?: Person) => {
    setPrinting(true);
    try {
      const persons = one ? [one] : await allPersons({ taskid: task!.taskid, teamid });
      const pins = new Map<string, string>();
      if (pinOn && !ended) {
        const r = await call('as.m.assess.resetAssessTaskPins', { taskid: task!.taskid, ...(one ? { cusercode: one.cusercode } : teamid ? { teamid } : {}) });
        for (const x of r.rows) pins.set(x.cusercode, x.pin);
        void pinQ.refetch();
      }
      setSlips(
        persons.map((p) => ({
          realname: t('common.bracketed', { text: p.realname, detail: p.studentno }),
          assesscode: p.assesscode,
          url: p.url,
          planname: `${task!.taskname} · ${p.teamname}`,
          pin: pins.get(p.cusercode),
        })),
      );
    } catch {
      // The request client showed why.
    } finally {
      setPrinting(false);
    }
  };
  const askPrint = (one?: Person) =>
    pinOn && !ended
      ? modal.confirm({
          title: one ? k('pinReprint') : teamid ? k('printTeam') : k('printAll'),
          content: one ? k('pinReprintConfirm', { name: one.realname }) : k('pinPrintConfirm'),
          okText: t('common.ok'),
          cancelText: t('common.cancel'),
          onOk: () => void print(one),
        })
      : void print(one);

  return (
    <Drawer open={!!task} onClose={onClose} size={900} title={task ? k('rosterTitle', { name: task.taskname }) : ''} destroyOnHidden data-testid="task-roster-drawer">
      {task && (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            {k('rosterHelp', { code: task.taskcode })}{' '}
            <Typography.Text copyable data-testid="task-entry-link">
              {respondentLink(`/t/${task.taskcode}`)}
            </Typography.Text>
          </Typography.Paragraph>
          <Space wrap>
            <Select
              allowClear
              placeholder={k('allTeams')}
              value={teamid}
              onChange={(v) => (setTeamid(v), setPage(1))}
              options={task.teams.map((x) => ({ value: x.teamid, label: x.teamname }))}
              style={{ width: 240 }}
              data-testid="task-roster-team"
            />
            <Input.Search allowClear placeholder={k('nameSearch')} onSearch={(v) => (setRealname(v), setPage(1))} style={{ width: 180 }} />
            {!ended && (
              <Can action="as.m.assess.insertAssessTeamRosterTask">
                <Button icon={<KeyOutlined />} onClick={issue} data-testid="task-issue">
                  {k('issueCodes')}
                </Button>
              </Can>
            )}
            <Button type="primary" ghost icon={<PrinterOutlined />} loading={printing} disabled={!q.data?.total} onClick={() => askPrint()} data-testid="task-slips">
              {teamid ? k('printTeam') : k('printAll')}
            </Button>
          </Space>
          {pinQ.data && (
            <div className="task-pin" data-testid="task-pin">
              <Space wrap>
                <Switch
                  checked={pinOn}
                  disabled={!can('as.m.assess.updateAssessTaskPin') || ended}
                  loading={pinQ.isFetching}
                  onChange={switchPin}
                  data-testid="task-pin-switch"
                />
                <Typography.Text strong>{k('pinSwitch')}</Typography.Text>
                {pinOn && <Typography.Text type="secondary">{k('pinState', { withpin: pinQ.data.withpin, total: pinQ.data.total })}</Typography.Text>}
                {pinQ.data.locked > 0 && <Typography.Text type="warning">{k('pinLocked', { count: pinQ.data.locked })}</Typography.Text>}
              </Space>
              <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
                {k('pinHelp')}
              </Typography.Paragraph>
            </div>
          )}
          {q.error ? (
            <ErrorState error={q.error} onRetry={() => void q.refetch()} />
          ) : (
            <DetailTable<Person>
              bordered
              rowKey={(p) => `${p.teamid}-${p.cusercode}`}
              loading={q.isFetching}
              dataSource={q.data?.rows}
              empty={k('rosterEmpty')}
              paged={{ page, pageSize: PAGE_SIZE, total: q.data?.total ?? 0, onChange: setPage }}
              columns={[
                { title: k('teamname'), dataIndex: 'teamname', key: 'teamname', width: 200 },
                { title: t('task.team.studentno'), dataIndex: 'studentno', key: 'studentno', width: 120 },
                { title: t('task.team.realname'), dataIndex: 'realname', key: 'realname', width: 110 },
                { title: k('assesscode'), dataIndex: 'assesscode', key: 'assesscode', width: 130, render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
                { title: k('progressState'), dataIndex: 'status', key: 'status', width: 90, render: (v: Person['status']) => <ProgressTag status={v} /> },
                ...(pinOn && !ended && can('as.m.assess.resetAssessTaskPins')
                  ? [
                      {
                        title: k('pinReprint'),
                        key: 'pin',
                        width: 90,
                        render: (_: unknown, p: Person) =>
                          p.status === 'finished' ? (
                            <Typography.Text type="secondary">—</Typography.Text>
                          ) : (
                            <Button type="link" size="small" onClick={() => askPrint(p)} data-testid={`task-person-slip-${p.cusercode}`}>
                              {k('pinReprint')}
                            </Button>
                          ),
                      },
                    ]
                  : []),
                ...(can('as.m.assess.deleteAssessTaskCUser')
                  ? [
                      {
                        title: t('common.actions'),
                        key: 'actions',
                        width: 80,
                        render: (_: unknown, p: Person) =>
                          p.status === 'notstarted' ? (
                            <Button type="link" size="small" danger onClick={() => remove(p)} data-testid={`task-person-remove-${p.cusercode}`}>
                              {k('removePerson')}
                            </Button>
                          ) : (
                            <Typography.Text type="secondary" title={k('removeAnswered')}>
                              —
                            </Typography.Text>
                          ),
                      },
                    ]
                  : []),
              ]}
              data-testid="task-roster-table"
            />
          )}
        </Space>
      )}
      <Modal open={!!slips} title={k('slipsTitle')} width={820} onCancel={() => setSlips(null)} footer={<Button onClick={() => setSlips(null)}>{t('common.close')}</Button>} destroyOnHidden>
        {slips && <CodeSlips slips={slips} />}
      </Modal>
    </Drawer>
  );
}

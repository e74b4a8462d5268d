import { useEffect, useState } from 'react';
import { Alert, Button, Descriptions, Drawer, Space, Tag, Timeline, Typography } from 'antd';
import { CheckOutlined, FlagOutlined, PlusOutlined, ReloadOutlined, StopOutlined, UserSwitchOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ActionOutput, CaseRow, FollowUpRow, WarningRow } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { Can, useAccess } from '../../components/access';
import { DetailTable, Waiting, useConfirmCall } from '../../components/list';
import { LevelTag } from '../../components/levels';
import { useApps } from '../../components/pickers';
import { formatTime } from '../../lib/format';
import { archiveLink, reportLink } from '../links';
import GiveDialog from '../reports/GiveDialog';
import { AssignDialog, CASE_KEYS, CloseCaseDialog, FollowUpDialog } from './CaseDialogs';
import FlagDialog from './FlagDialog';
import { isActive, nextSteps } from './case-state';
import { CaseStateTag, useWarningOptions, WarningLevelTag } from './warning-ui';
import { useT } from '../../i18n/useT';

type CaseDetail = ActionOutput<'as.m.warning.getCase'>;
type Dialog = 'followup' | 'close' | 'assign' | 'rescreen' | 'flag' | null;

/** What a case event says: the change, its state move and its note. */
function EventLine({ e }: { e: CaseDetail['events'][number] }) {
  const k = useT('earlyWarning.case');
  const move = e.what === 'state' ? `${e.from ? k(`states.${e.from}`) : ''} → ${k(`states.${e.to}`)}` : '';
  return (
    <div data-testid="case-event" data-what={e.what}>
      <Typography.Text strong>{k(`what.${e.what}`)}</Typography.Text> {move && <Typography.Text>{move}</Typography.Text>}
      <div>
        <Typography.Text type="secondary">
          {e.byname || k('system')} · {formatTime(e.at)}
        </Typography.Text>
      </div>
      {e.note && <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{e.note}</Typography.Paragraph>}
    </div>
  );
}

/** The step buttons and the other actions of a case, each shown only to who may call it. */
function CaseActions({ c, open }: { c: CaseRow; open: (d: Dialog) => void }) {
  const k = useT('earlyWarning.case');
  const confirm = useConfirmCall();
  const steps = nextSteps(c.state);
  const step = (action: 'as.m.warning.acknowledgeCase' | 'as.m.warning.startFollowUp', question: string) =>
    void confirm({ action, input: { caseid: c.caseid }, content: question, success: k('done'), invalidates: [...CASE_KEYS] });
  return (
    <Space wrap data-testid="case-actions">
      {steps.includes('acknowledge') && (
        <Can action="as.m.warning.acknowledgeCase">
          <Button
            type="primary"
            icon={<CheckOutlined />}
            onClick={() => step('as.m.warning.acknowledgeCase', k('acknowledgeConfirm'))}
            data-testid="case-acknowledge"
          >
            {k('acknowledge')}
          </Button>
        </Can>
      )}
      {steps.includes('startFollowUp') && (
        <Can action="as.m.warning.startFollowUp">
          <Button
            type={steps[0] === 'startFollowUp' ? 'primary' : 'default'}
            onClick={() => step('as.m.warning.startFollowUp', k('startFollowUpConfirm'))}
            data-testid="case-start"
          >
            {k('startFollowUp')}
          </Button>
        </Can>
      )}
      {isActive(c.state) && (
        <>
          <Can action="as.m.warning.insertFollowUp">
            <Button
              type={c.state === 'followup' ? 'primary' : 'default'}
              icon={<PlusOutlined />}
              onClick={() => open('followup')}
              data-testid="case-followup"
            >
              {k('addFollowUp')}
            </Button>
          </Can>
          <Can action="as.m.warning.assignCase">
            <Button icon={<UserSwitchOutlined />} onClick={() => open('assign')} data-testid="case-assign">
              {k('assign')}
            </Button>
          </Can>
          <Can action="as.m.warning.rescreenCase">
            <Button icon={<ReloadOutlined />} onClick={() => open('rescreen')} data-testid="case-rescreen">
              {k('rescreen')}
            </Button>
          </Can>
        </>
      )}
      <Can action="as.m.warning.flagPerson">
        <Button icon={<FlagOutlined />} onClick={() => open('flag')} data-testid="case-flag">
          {k('flag')}
        </Button>
      </Can>
      {steps.includes('close') && (
        <Can action="as.m.warning.closeCase">
          <Button danger icon={<StopOutlined />} onClick={() => open('close')} data-testid="case-close">
            {k('close')}
          </Button>
        </Can>
      )}
    </Space>
  );
}

function CaseBody({ detail, onCase }: { detail: CaseDetail; onCase: (caseid: string) => void }) {
  const { t } = useTranslation();
  const k = useT('earlyWarning.case');
  const f = useT('registration.followUp');
  const { can } = useAccess();
  const apps = useApps();
  const { ways } = useWarningOptions();
  const [dialog, setDialog] = useState<Dialog>(null);
  const { case: c, warnings, events, followups } = detail;
  const close = () => setDialog(null);
  const section = (title: string) => (
    <Typography.Title level={5} style={{ margin: '8px 0 0' }}>
      {title}
    </Typography.Title>
  );
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <CaseActions c={c} open={setDialog} />
      {c.state === 'closed' && (
        <Alert
          type="success"
          showIcon
          title={`${k('closedInfo', { time: c.closedat ? formatTime(c.closedat) : '' })}${c.outcome ? ` · ${k(`outcomes.${c.outcome}`)}` : ''}`}
        />
      )}
      {c.escalatedat && c.state !== 'closed' && (
        <Alert type="warning" showIcon title={`${k('escalated')} · ${formatTime(c.escalatedat)}`} />
      )}
      <Descriptions
        size="small"
        bordered
        column={{ xs: 1, md: 2 }}
        items={[
          {
            key: 'name',
            label: k('realname'),
            children: can('as.m.cuser.getCUserArchive') ? (
              <Link to={archiveLink(c.appid, c.cusercode)} data-testid="case-archive">
                {c.realname}
              </Link>
            ) : (
              c.realname
            ),
          },
          { key: 'app', label: t('common.appid'), children: apps.nameOf(c.appid) },
          { key: 'ins', label: k('insname'), children: c.insname },
          { key: 'assignee', label: k('assignee'), children: c.assigneename || k('unassigned') },
          { key: 'opened', label: k('openedat'), children: formatTime(c.openedat) },
          {
            key: 'next',
            label: k('nextdate'),
            children: c.nextdate ? (
              <Space size={4}>
                {c.nextdate}
                {c.overdue && <Tag color="error">{k('overdue')}</Tag>}
              </Space>
            ) : (
              '—'
            ),
          },
        ]}
      />

      {section(`${k('warnings')} (${warnings.length})`)}
      {/* No horizontal scroll here: a long reason wraps inside the drawer instead of widening it. */}
      <DetailTable<WarningRow>
        rowKey="warningid"
        dataSource={warnings}
        scroll={undefined}
        tableLayout="fixed"
        columns={[
          { title: k('level'), key: 'level', width: 70, render: (_, w) => <WarningLevelTag level={w.level} colour={w.colour} /> },
          {
            title: k('kind'),
            key: 'reason',
            render: (_, w) => (
              <div data-testid="warning-reason" className="case-reason">
                <Tag variant="filled">{k(`kinds.${w.kind}`)}</Tag>
                <span>{w.reason}</span>
                {w.formname && <Typography.Text type="secondary"> · {w.formname}</Typography.Text>}
              </div>
            ),
          },
          {
            title: t('common.createdat'),
            key: 'at',
            width: 104,
            render: (_, w) => <span className="list-time">{formatTime(w.createdat)}</span>,
          },
          {
            title: t('common.actions'),
            key: 'report',
            width: 90,
            render: (_, w) =>
              w.reportid ? (
                <Link to={reportLink(w.reportid)} data-testid="warning-report">
                  {k('report')}
                </Link>
              ) : (
                <Typography.Text type="secondary">{k('noReport')}</Typography.Text>
              ),
          },
        ]}
      />

      {section(`${k('followups')} (${followups.length})`)}
      <DetailTable<FollowUpRow>
        rowKey="followid"
        dataSource={followups}
        empty={k('noFollowups')}
        columns={[
          { title: f('followdate'), dataIndex: 'followdate', key: 'date', width: 100 },
          { title: f('way'), key: 'way', width: 80, render: (_, r) => ways.find((w) => w.value === r.way)?.label ?? r.way },
          { title: f('byname'), dataIndex: 'byname', key: 'by', width: 90 },
          {
            title: f('content'),
            dataIndex: 'content',
            key: 'content',
            render: (v: string) => <span style={{ whiteSpace: 'pre-wrap' }}>{v}</span>,
          },
          { title: f('risk'), key: 'risk', width: 90, render: (_, r) => <LevelTag level={r.risk} /> },
          { title: f('nextdate'), key: 'next', width: 100, render: (_, r) => r.nextdate || '—' },
        ]}
      />

      {section(k('timeline'))}
      <Timeline
        data-testid="case-timeline"
        items={[...events].reverse().map((e, i) => ({
          key: i,
          color: e.what === 'escalate' ? 'red' : e.to === 'closed' && e.what === 'state' ? 'green' : 'blue',
          content: <EventLine e={e} />,
        }))}
      />

      <FollowUpDialog open={dialog === 'followup'} caseid={c.caseid} onClose={close} />
      <CloseCaseDialog open={dialog === 'close'} caseid={c.caseid} onClose={close} />
      <AssignDialog open={dialog === 'assign'} record={c} onClose={close} />
      <FlagDialog person={dialog === 'flag' ? c : null} onClose={close} onFlagged={onCase} />
      <GiveDialog
        persons={dialog === 'rescreen' ? [c] : []}
        appid={c.appid}
        onClose={close}
        giveOne={(plancode, stagecode) => call('as.m.warning.rescreenCase', { caseid: c.caseid, plancode, stagecode })}
      />
    </Space>
  );
}

/**
 * One case (?caseid= on the warning page): the person, every warning with its reason in words
 * and its report, the follow-ups, who did what and when, and the actions of its state. Opening
 * it marks the caller's notifications of the case read.
 */
export default function CaseDrawer({
  caseid,
  onClose,
  onCase,
}: {
  caseid: string | null;
  onClose: () => void;
  onCase?: (caseid: string) => void;
}) {
  const { t } = useTranslation();
  const { can } = useAccess();
  const queryClient = useQueryClient();
  const q = useAction('as.m.warning.getCase', { caseid: caseid ?? '' }, { enabled: !!caseid });
  const data = q.data;
  const mayMark = can('as.m.warning.markNotificationsRead');
  useEffect(() => {
    if (!caseid || !mayMark) return;
    void call('as.m.warning.markNotificationsRead', { caseid }, { silent: true })
      .then(() => queryClient.invalidateQueries({ queryKey: ['as.m.warning.getNotificationCount'] }))
      .then(() => queryClient.invalidateQueries({ queryKey: ['as.m.warning.getNotificationList'] }))
      .catch(() => undefined);
  }, [caseid, mayMark, queryClient]);

  return (
    <Drawer
      open={!!caseid}
      onClose={onClose}
      size={780}
      destroyOnHidden
      data-testid="case-drawer"
      title={
        <Space wrap>
          <span>{t('earlyWarning.case.drawerTitle')}</span>
          {data && (
            <>
              <WarningLevelTag level={data.case.level} colour={data.case.colour} />
              <CaseStateTag state={data.case.state} />
              <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
                {data.case.realname}
              </Typography.Text>
            </>
          )}
        </Space>
      }
    >
      {/* A failed background refresh keeps the case on screen (and any dialog open over it). */}
      {data ? <CaseBody detail={data} onCase={(id) => onCase?.(id)} /> : <Waiting query={q} />}
    </Drawer>
  );
}

import { Checkbox, Space, Tag } from 'antd';
import { useSearchParams } from 'react-router';
import type { FollowUpRow } from '@xinli/contract';
import { f, ListView, useListPage } from '../../components/list';
import { LevelTag } from '../../components/levels';
import CaseDrawer from '../../features/warnings/CaseDrawer';
import { useWarningOptions } from '../../features/warnings/warning-ui';
import '../../features/warnings/warnings.css';
import { useT } from '../../i18n/useT';

/**
 * Follow-up management (followUpManagement, 00017): the follow-up records of every case in the
 * caller's scope, overdue first then newest; an overdue one (the case's latest, its next date
 * passed, the case not closed) is highlighted; a row opens its case (?caseid=).
 */
export default function FollowUpManagement() {
  const k = useT('registration.followUp');
  const [params, setParams] = useSearchParams();
  const overdue = params.get('overdue') === '1';
  const caseid = params.get('caseid');
  const { ways } = useWarningOptions();
  const list = useListPage('as.m.warning.getFollowUpPageList', {
    resource: 'registration.followUp',
    filters: [f.text('realname', { maxLength: 50 }), f.dateRange('dateRange', ['startdate', 'enddate']), f.institution()],
    input: overdue ? { overdue: true } : {},
    invalidates: ['as.m.warning.getCase', 'as.m.warning.getCasePageList'],
  });
  const col = list.colFor<FollowUpRow>();
  const setParam = (key: string, value: string | null) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (value) next.set(key, value);
      else next.delete(key);
      if (key === 'overdue') next.delete('page');
      return next;
    });
  const open = (id: string | null) => setParam('caseid', id);

  return (
    <ListView<FollowUpRow>
      list={list}
      rowKey="followid"
      actions={
        <Checkbox
          checked={overdue}
          onChange={(e) => setParam('overdue', e.target.checked ? '1' : null)}
          data-testid="followup-overdue-only"
        >
          {k('overdueOnly')}
        </Checkbox>
      }
      rowClassName={(r) => (r.overdue ? 'followup-row-overdue' : '')}
      columns={[
        col.text('realname', {
          width: 100,
          render: (v: string, r) => (
            <a onClick={() => open(r.caseid)} data-testid={`followup-case-${r.followid}`}>
              {v}
            </a>
          ),
        }),
        col.text('followdate', { width: 110 }),
        col.text('way', { width: 100, render: (v: string) => ways.find((w) => w.value === v)?.label ?? v }),
        col.text('byname', { width: 100, render: (v: string) => v || '—' }),
        col.text('content', {
          width: 200,
          render: (v: string) => <div style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{v}</div>,
        }),
        col.text('risk', { width: 100, render: (v: number) => <LevelTag level={v} /> }),
        col.text('nextdate', {
          width: 120,
          render: (v: string, r) =>
            v ? (
              <Space size={4} orientation="vertical">
                <span>{v}</span>
                {r.overdue && (
                  <Tag color="error" data-testid="followup-overdue">
                    {k('overdueTag')}
                  </Tag>
                )}
              </Space>
            ) : (
              '—'
            ),
        }),
        col.time('createdat'),
        col.actions((r) => [{ key: 'case', label: k('openCase'), onClick: () => open(r.caseid) }], { width: 90 }),
      ]}
    >
      <CaseDrawer caseid={caseid} onClose={() => open(null)} onCase={open} />
    </ListView>
  );
}

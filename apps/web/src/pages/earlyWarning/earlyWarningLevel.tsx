import { useState } from 'react';
import { Badge, Button, Segmented, Space, Tag, Typography } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { ActionInput, CaseRow } from '@xinli/contract';
import { Can, useRegionAuthority } from '../../components/access';
import { f, ListView, useListPage, type FilterDef } from '../../components/list';
import { useApps, useInstitutions } from '../../components/pickers';
import { ExportButton } from '../../components/transfer';
import CaseDrawer from '../../features/warnings/CaseDrawer';
import DistrictCases from './DistrictCases';
import WarningSettingsDialog from './WarningSettingsDialog';
import { CASE_STATES, parseStateTab, type StateTab } from '../../features/warnings/case-state';
import { CaseStateTag, useStaff, useWarningOptions, WarningLevelTag } from '../../features/warnings/warning-ui';
import '../../features/warnings/warnings.css';
import { useT } from '../../i18n/useT';

const LIST = 'as.m.warning.getCasePageList';
const EXPORT = 'as.m.exam.exportCUserWarningDetailData';

/** The counts over the list's filters: critical, attention, and cases nobody has acknowledged. */
function Counts({ counts }: { counts?: { critical: number; attention: number; open: number } }) {
  const k = useT('earlyWarning.case');
  const item = (key: 'critical' | 'attention' | 'open', colour: string) => (
    <span className="warning-count" data-testid={`warning-count-${key}`}>
      <Badge color={colour} />
      <Typography.Text type="secondary">{k(`counts.${key}`)}</Typography.Text>
      <strong>{counts ? counts[key] : '–'}</strong>
    </span>
  );
  return (
    <Space size={20} wrap>
      {item('critical', '#9b1c1c')}
      {item('attention', '#f5a623')}
      {item('open', '#ff4d4f')}
    </Space>
  );
}

/**
 * The crisis warning page (earlyWarningLevel, 00046): the cases of the caller's scope, critical
 * first, with counts, filters, the state tabs and the export of what is filtered; a row opens
 * the case drawer (kept in the URL as ?caseid=, so a notification can link to it).
 */
function CaseList() {
  const { t } = useTranslation();
  const k = useT('earlyWarning.case');
  const [params, setParams] = useSearchParams();
  const stateTab = parseStateTab(params.get('state'));
  const caseid = params.get('caseid');
  const options = useWarningOptions();
  const staff = useStaff();
  const apps = useApps();
  const institutions = useInstitutions();
  const [settings, setSettings] = useState(false);

  const filters: FilterDef[] = [
    f.text('realname', { maxLength: 50, width: 150 }),
    f.select('level', options.levels, { width: 120 }),
    f.select('kind', options.kinds, { width: 150 }),
    f.app(),
    f.stage(),
    f.dateRange('dateRange', ['startdate', 'enddate']),
    ...(staff.listed ? [f.select('assignee', staff.options, { width: 150 })] : []),
    f.institution(),
  ];
  const list = useListPage(LIST, {
    resource: 'earlyWarning.case',
    filters,
    input: stateTab ? { state: stateTab } : {},
    invalidates: ['as.m.warning.getCase', 'as.m.warning.getFollowUpPageList'],
  });
  const col = list.colFor<CaseRow>();

  const setParam = (key: string, value: string | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(key, value);
        else next.delete(key);
        if (key === 'state') next.delete('page');
        return next;
      },
      { replace: key === 'state' },
    );
  const open = (id: string | null) => setParam('caseid', id);

  const tabs = [
    { value: '', label: k('stateTabs.active') },
    ...CASE_STATES.map((s) => ({ value: s, label: k(`states.${s}`) })),
    { value: 'all', label: k('stateTabs.all') },
  ];
  const exportInput = { ...list.filters, ...(stateTab ? { state: stateTab } : {}) } as ActionInput<typeof EXPORT>;

  return (
    <ListView<CaseRow>
      list={list}
      rowKey="caseid"
      banner={
        <div className="warning-banner">
          <Segmented<string>
            value={stateTab}
            options={tabs}
            onChange={(v) => setParam('state', (v as StateTab) || null)}
            data-testid="case-state-tabs"
          />
          <Counts counts={list.data?.counts} />
        </div>
      }
      actions={
        <>
          <ExportButton action={EXPORT} input={exportInput} data-testid="warning-export">
            {k('export')}
          </ExportButton>
          <Can action="as.m.warning.updateWarningSettings">
            <Button icon={<SettingOutlined />} onClick={() => setSettings(true)} data-testid="warning-settings">
              {k('settings')}
            </Button>
          </Can>
        </>
      }
      rowClassName={(r) => (r.level === 'critical' && r.state !== 'closed' ? 'warning-row-critical' : '')}
      onRow={(r) => ({ onDoubleClick: () => open(r.caseid) })}
      columns={[
        col.text('level', { width: 80, render: (_: unknown, r) => <WarningLevelTag level={r.level} colour={r.colour} /> }),
        col.text('realname', {
          width: 100,
          render: (v: string, r) => (
            <a onClick={() => open(r.caseid)} data-testid={`case-open-${r.caseid}`}>
              {v}
            </a>
          ),
        }),
        // State and assignee come next to the name: at 1024 px they are seen without scrolling sideways.
        col.text('state', { width: 100, render: (_: unknown, r) => <CaseStateTag state={r.state} /> }),
        col.text('assigneename', {
          width: 100,
          render: (v: string) => v || <Typography.Text type="secondary">{k('unassigned')}</Typography.Text>,
        }),
        { title: t('common.appid'), dataIndex: 'appid', key: 'appid', width: 120, render: (v: string) => apps.nameOf(v) },
        col.text('reason', {
          width: 280,
          render: (v: string, r) => (
            <div className="warning-reason">
              <div>{v}</div>
              <Space size={4} wrap>
                {r.kinds.map((kind) => (
                  <Tag key={kind} variant="filled">
                    {k(`kinds.${kind}`)}
                  </Tag>
                ))}
              </Space>
            </div>
          ),
        }),
        col.text('warningcount', { width: 70, align: 'right' }),
        col.text('nextdate', {
          width: 110,
          render: (v: string, r) =>
            v ? (
              <Space size={4} orientation="vertical">
                <span>{v}</span>
                {r.overdue && <Tag color="error">{k('overdue')}</Tag>}
              </Space>
            ) : (
              '—'
            ),
        }),
        col.time('lastwarningat'),
        ...(institutions.many ? [col.text('insname', { width: 140 })] : []),
        col.actions((r) => [{ key: 'handle', label: k('handle'), onClick: () => open(r.caseid), testId: `case-handle-${r.caseid}` }], {
          width: 70,
        }),
      ]}
    >
      <CaseDrawer caseid={caseid} onClose={() => open(null)} onCase={open} />
      <WarningSettingsDialog open={settings} onClose={() => setSettings(false)} />
    </ListView>
  );
}

/** An education bureau sees its district's totals; every other caller its own cases. */
export default function EarlyWarningLevel() {
  return useRegionAuthority() ? <DistrictCases /> : <CaseList />;
}

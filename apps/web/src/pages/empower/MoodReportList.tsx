/**
 * The second view of the report lists: people whose anxiety or depression indicators reach a
 * chosen level (getAnxiousDepressedReportPageList; moderate and above unless another is chosen).
 */
import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ActionOutput } from '@xinli/contract';
import { f, ListView, useListPage, type FilterDef } from '../../components/list';
import { LevelTag, useLevelLabel } from '../../components/levels';
import { archiveLink, reportLink } from '../../features/links';
import { useT } from '../../i18n/useT';

type MoodRow = ActionOutput<'as.m.exam.getAnxiousDepressedReportPageList'>['rows'][number];

export default function MoodReportList({ appid }: { appid?: string }) {
  const { t } = useTranslation();
  const report = useT('empower.report');
  const levelLabel = useLevelLabel();
  const navigate = useNavigate();
  const filters: FilterDef[] = [
    f.text('realname', { maxLength: 50 }),
    f.select('kind', [
      { value: 'anxious', label: t('empower.report.anxious') },
      { value: 'depressed', label: t('empower.report.depressed') },
    ], { width: 130 }),
    f.select('minlevel', [1, 2, 3, 4].map((l) => ({ value: l, label: t('empower.report.atLeast', { level: levelLabel(l) }) })), { width: 150 }),
    f.dateRange('dateRange', ['startdate', 'enddate']),
    f.institution(),
  ];
  const list = useListPage('as.m.exam.getAnxiousDepressedReportPageList', { resource: 'empower.report', filters, input: appid ? { appid } : {} });
  const col = list.colFor<MoodRow>();
  return (
    <ListView<MoodRow>
      list={list}
      rowKey="reportid"
      data-testid="mood-list"
      columns={[
        col.text('realname', {
          width: 110,
          render: (v: string, r) => <a onClick={() => navigate(archiveLink(r.appid, r.cusercode))}>{v}</a>,
        }),
        col.text('formname', { width: 200 }),
        col.text('stagename', { width: 130, render: (v: string) => v || '—' }),
        {
          title: t('empower.report.moods'),
          key: 'moods',
          width: 320,
          render: (_: unknown, r: MoodRow) => (
            <Space size={[4, 4]} wrap>
              {r.moods.map((m) => (
                <Space key={m.quotacode} size={4}>
                  <Tag color={m.kind === 'anxious' ? 'purple' : 'blue'}>{report(m.kind)}</Tag>
                  <span>
                    {m.name} {m.score}
                  </span>
                  <LevelTag level={m.level} colour={m.colour} />
                </Space>
              ))}
            </Space>
          ),
        },
        col.time('createdat'),
        col.actions((r) => [{ key: 'view', label: t('empower.report.view'), onClick: () => navigate(reportLink(r.reportid)) }], { width: 80 }),
      ]}
    />
  );
}

/**
 * What the statistics pages (statistics1, statisticsN, usersReportS) and the big screen share:
 * one query per statistics action under the filter, the filter bar kept in the URL, the figure
 * cards, and the jump from a chart to the matching report list.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { App as AntApp, Button, Card, Form, Modal, Select, Space, Statistic, Tooltip, Typography } from 'antd';
import { QuestionCircleOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { PopulationApp, type StatsFilter } from '@xinli/contract';
import { clearErrorMessages } from '../../api';
import { useSession } from '../../auth';
import { findPage } from '../../auth/routes';
import { useAccess } from '../../components/access';
import { useAction } from '../../components/query';
import { decodeFilters, encodeFilters, f, FilterFields, SearchForm, type FilterDef } from '../../components/list';
import { fromFormValues, toFormValues } from '../../components/list/filters';
import { useApps, useStages } from '../../components/pickers';
import { useAccountApps } from '../../layout/apps';
import { populationPages } from '../../lib/populations';
import { reportListLink, reportPageOf, type ReportLinkTarget } from '../links';
import { staleStage, statsFilterOf } from './stats-filter';
import { useT } from '../../i18n/useT';

export const R = 'statistics.dashboard';

/** The page's words: `statistics.dashboard.<key>`. */
export function useK() {
  return useT(R);
}

/** Statistics move slowly: a figure read in the last half minute is shown again, not fetched. */
export const STAT = { staleTime: 30_000 } as const;

/**
 * The filter bar's fields: institution (callers whose statistics cover several), region, population app (unless
 * the page fixes it), stage and the date range with the SPEC §9 shortcuts. All live in the URL.
 */
export function statsFilterDefs(withApp: boolean): FilterDef[] {
  return [
    f.institution('musercode', { source: 'stats' }),
    f.region(),
    ...(withApp ? [f.app()] : []),
    f.stage(),
    f.dateRange('dateRange', ['startdate', 'enddate']),
  ];
}

/** The stages to filter by: those with reports under the app (report counts), else the caller's stage list. */
function useStatStages(appid: string | undefined) {
  const { can } = useAccess();
  const counts = useAction('as.m.exam.getCUserStagesAssessCount', appid ? { appid } : {}, { staleTime: 60_000 });
  const list = useStages(appid);
  if (can('as.m.exam.getCUserStagesAssessCount'))
    return {
      // Reports outside any stage (group tasks) have no stage to choose.
      options: (counts.data ?? []).filter((s) => s.stagecode).map((s) => ({ value: s.stagecode, label: s.stagename || s.stagecode })),
      loading: counts.isLoading,
      failed: !!counts.error,
      shown: true,
    };
  return { ...list, failed: false, shown: can('as.m.app.exam.getExamStageList') };
}

/** Filters declared as data, kept in the URL, with the search form that edits them (a list page's without the list). */
export function useUrlFilterForm(defs: FilterDef[]) {
  const [params, setParams] = useSearchParams();
  const values = useMemo(() => decodeFilters(defs, params), [defs, params]);
  const [form] = Form.useForm();
  const key = JSON.stringify(values);
  useEffect(() => {
    form.resetFields();
    form.setFieldsValue(toFormValues(defs, values));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, form]);
  const write = (next: Record<string, unknown>) =>
    setParams((prev) => encodeFilters(defs, fromFormValues(defs, next), prev), { replace: true });
  return { values, defs, form, search: write, reset: () => write({}) };
}

/** The filter of the URL and the bar that edits it. `fixed` fields (statisticsN's app) are always sent. */
export function useStatsFilter(fixed: Partial<StatsFilter> = {}) {
  const withApp = !fixed.appid;
  const defs = useMemo(() => statsFilterDefs(withApp), [withApp]);
  const form = useUrlFilterForm(defs);
  const fixedKey = JSON.stringify(fixed);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const filter = useMemo(() => statsFilterOf(form.values, fixed), [form.values, fixedKey]);
  return { ...form, filter };
}

export type StatsFilterApi = ReturnType<typeof useStatsFilter>;

/**
 * A stage in the URL that the caller's stage choices do not hold (an old link, another
 * population's stage) is dropped from the filter, and said once: the page's error messages of
 * the failed figures are closed and one notice names the stage (issue 28).
 */
function useDropStaleStage(filter: StatsFilter) {
  const k = useT(R);
  const { message } = AntApp.useApp();
  const [, setParams] = useSearchParams();
  const applied = useStatStages(filter.appid);
  const stale = staleStage(filter.stagecode, applied.shown && !applied.failed ? applied.options : undefined, applied.loading);
  useEffect(() => {
    if (!stale) return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('stagecode');
        return next;
      },
      { replace: true },
    );
    clearErrorMessages();
    message.warning({ key: 'stats-stale-stage', content: k('staleStage', { stage: stale }), duration: 8 });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stale]);
}

export function StatsFilterBar({ api, extra }: { api: StatsFilterApi; extra?: ReactNode }) {
  const { t } = useTranslation();
  const k = useT(R);
  const withApp = api.defs.some((d) => d.kind === 'app');
  const appid = Form.useWatch('appid', api.form) as string | undefined;
  const stages = useStatStages(withApp ? appid : api.filter.appid);
  useDropStaleStage(api.filter);
  const before = api.defs.filter((d) => d.kind === 'institution' || d.kind === 'region' || d.kind === 'app');
  const after = api.defs.filter((d) => d.kind === 'dateRange');
  return (
    <Card size="small" className="stats-filter" data-testid="stats-filter">
      <SearchForm form={api.form} onSearch={api.search} onReset={api.reset}>
        <FilterFields defs={before} resource={R} />
        {stages.shown && (
          <Form.Item name="stagecode" label={k('stagecode')}>
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              options={stages.options}
              loading={stages.loading}
              placeholder={t('common.all')}
              style={{ width: 180 }}
              data-testid="stats-stage"
            />
          </Form.Item>
        )}
        <FilterFields defs={after} resource={R} />
      </SearchForm>
      {extra}
    </Card>
  );
}

/** A figure card: its value, a second line, and its own loading and error state. */
export function Figure({
  title,
  value,
  suffix,
  note,
  state,
  help,
  testId,
  tone,
}: {
  title: ReactNode;
  value: ReactNode;
  suffix?: ReactNode;
  note?: ReactNode;
  state: { isLoading: boolean; error: unknown; refetch: () => unknown };
  help?: string;
  testId: string;
  tone?: 'warn';
}) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      className="stats-figure"
      data-testid={testId}
      data-state={state.error ? 'error' : state.isLoading ? 'loading' : 'ready'}
    >
      <Statistic
        title={
          <Space size={4}>
            {title}
            {help && (
              <Tooltip title={help}>
                <QuestionCircleOutlined />
              </Tooltip>
            )}
          </Space>
        }
        loading={state.isLoading && !state.error}
        value={state.error ? '—' : (value as string)}
        suffix={state.error ? undefined : suffix}
        styles={{ content: tone === 'warn' ? { color: '#e8590c' } : undefined }}
      />
      <div className="stats-figure-note">
        {state.error ? (
          <Button size="small" type="link" icon={<ReloadOutlined />} onClick={() => void state.refetch()} style={{ padding: 0 }}>
            {t('common.loadFailed')} · {t('common.retry')}
          </Button>
        ) : (
          <Typography.Text type="secondary">{note ?? '\u00a0'}</Typography.Text>
        )}
      </div>
    </Card>
  );
}

/** Figures in a row that wraps (a grid: five across at 1024 and 1440 px, fewer when narrower). */
export function FigureRow({ children }: { children: ReactNode }) {
  return <div className="stats-figures">{children}</div>;
}

/** The account's populations (app ids; none: the platform's every population); undefined while loading. */
export function useAccountPopulations(): string[] | undefined {
  const { session } = useSession();
  return useAccountApps(session!.user).data?.map((a) => a.appid);
}

/** The population report lists the caller may open (app id, name, path), of the account's own apps. */
function useReportPages() {
  const { session } = useSession();
  const apps = useApps();
  const own = useAccountApps(session!.user).data;
  const all = [...populationPages.map((p) => p.appid), PopulationApp.customReport];
  return all
    .map((appid) => ({ appid, path: reportPageOf(appid)! }))
    .filter((p) => session && findPage(session.routes, p.path))
    .filter((p) => !own?.length || own.some((a) => a.appid === p.appid))
    .map((p) => ({ ...p, name: apps.nameOf(p.appid) }));
}

/**
 * From a bar, point or slice to the report list behind it. With one population (chosen in the
 * filter, fixed by the page, or the only list the caller may open) the list opens at once; with
 * several, a dialog asks which population's reports to open.
 */
export function useReportJump() {
  const k = useK();
  const navigate = useNavigate();
  const pages = useReportPages();
  const [pending, setPending] = useState<{ target: Omit<ReportLinkTarget, 'appid'>; what: string } | null>(null);
  const open = (target: ReportLinkTarget) => {
    const link = reportListLink(target);
    if (link) navigate(link);
  };
  const jump = (target: Omit<ReportLinkTarget, 'appid'> & { appid?: string }, what: string) => {
    const appid = target.appid || target.filter.appid;
    if (appid) {
      if (pages.some((p) => p.appid === appid)) open({ ...target, appid });
      return;
    }
    if (pages.length === 1) open({ ...target, appid: pages[0]!.appid });
    else if (pages.length > 1) setPending({ target, what });
  };
  /** Whether a click can lead anywhere (a report list the caller may open). */
  const possible = (appid?: string) => (appid ? pages.some((p) => p.appid === appid) : pages.length > 0);
  const chooser = (
    <Modal
      open={!!pending}
      title={k('chooseTitle')}
      footer={null}
      onCancel={() => setPending(null)}
      destroyOnHidden
      data-testid="stats-choose"
    >
      <Typography.Paragraph type="secondary">{pending?.what}</Typography.Paragraph>
      <Space wrap>
        {pages.map((p) => (
          <Button
            key={p.appid}
            onClick={() => {
              const target = pending!.target;
              setPending(null);
              open({ ...target, appid: p.appid });
            }}
            data-testid={`stats-choose-${p.appid}`}
          >
            {p.name}
          </Button>
        ))}
      </Space>
    </Modal>
  );
  return { jump, possible, chooser };
}

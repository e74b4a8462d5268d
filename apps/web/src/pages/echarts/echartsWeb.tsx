/**
 * The report page (hidden route /echarts/web?reportid=…): what staff open after a screening.
 * Who scored what (header with the person and the form version), what it means (every
 * indicator's score, band, level, interpretation and advice), how it has moved (earlier results
 * of the same form), the answers, staff comments, and the print / PDF / show-hide buttons.
 * Without `reportid` the same route is the big screen (BigScreen.tsx, see wall.ts).
 */
import { Alert, Card, Descriptions, Result, Space, Spin, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { enumLabel, Gender, type ReportDetail } from '@xinli/contract';
import { useAction } from '../../components/query';
import { useAccess } from '../../components/access';
import { ErrorState } from '../../components/list';
import { LevelTag, MentalStateTag } from '../../components/levels';
import { formatTime } from '../../lib/format';
import { useLang, useLocalText } from '../../lib/options';
import { archiveLink } from '../../features/links';
import ReportActions from './ReportActions';
import PageLoading from '../../components/feedback/PageLoading';
import './report.css';
import { isWallDisplay } from './wall';
import { isPhq9 } from './report-data';
import NormSection from '../../features/norms/NormSection';
import { AnswerSection, CommentSection, IndicatorSection, Phq9Section, TrendSection, useReportText } from './ReportParts';

/** The wall display (its own chunk: the report page does not load it). */
const BigScreen = lazy(() => import('./BigScreen'));

function ReportHeader({ report, actions }: { report: ReportDetail; actions?: React.ReactNode }) {
  const k = useReportText();
  const lang = useLang();
  // Phone and ID come masked (138****5678) unless the caller holds 0000801, the full-identity
  // permission: the server applies the kit's mask rule, so the page shows what it is given.
  const person = useAction('as.m.assess.getCUser', { cusercode: report.cusercode }, { staleTime: 60_000 }).data;
  const gender = Gender.some((g) => g.value === report.gender) ? enumLabel(Gender, report.gender, lang) : '—';
  return (
    <Card
      size="small"
      data-testid="report-header"
      title={
        <Space wrap size={8}>
          <Typography.Text strong style={{ fontSize: 16 }}>
            {report.formname}
          </Typography.Text>
          <Typography.Text type="secondary" data-testid="report-version">
            {k('version')} v{report.version}
          </Typography.Text>
        </Space>
      }
    >
      {/* The buttons under the title, so a long form name is never cut off by them. */}
      <div className="report-actions">{actions}</div>
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, lg: 3, xxl: 4 }}
        items={[
          {
            key: 'name',
            label: k('realname'),
            children: (
              <Link to={archiveLink(report.appid, report.cusercode)} data-testid="report-person">
                {report.realname}
              </Link>
            ),
          },
          { key: 'gender', label: k('gender'), children: gender },
          ...(person
            ? [
                { key: 'phone', label: k('phonenumber'), children: <span data-testid="report-phone">{person.phonenumber || '—'}</span> },
                { key: 'idcard', label: k('idcard'), children: <span data-testid="report-idcard">{person.idcard || '—'}</span> },
              ]
            : []),
          { key: 'app', label: k('appname'), children: report.appname || '—' },
          { key: 'ins', label: k('insname'), children: report.insname || '—' },
          { key: 'plan', label: k('planname'), children: report.planname || '—' },
          { key: 'stage', label: k('stagename'), children: report.stagename || '—' },
          { key: 'time', label: k('createdat'), children: formatTime(report.createdat) },
          { key: 'state', label: k('mentalstate'), children: <MentalStateTag state={report.mentalstate} /> },
          { key: 'level', label: k('level'), children: report.level === null ? '—' : <LevelTag level={report.level} colour={report.colour} /> },
          { key: 'id', label: k('reportid'), children: <Typography.Text copyable>{report.reportid}</Typography.Text> },
        ]}
      />
    </Card>
  );
}

/** The report of `?reportid=`, or (without it, for a caller who may read the statistics) the big screen. */
export default function EchartsWeb() {
  const { can } = useAccess();
  const location = useLocation();
  if (isWallDisplay(location.pathname, location.search, can))
    return (
      <Suspense fallback={<PageLoading />}>
        <BigScreen />
      </Suspense>
    );
  return <ReportPage />;
}

function ReportPage() {
  const k = useReportText();
  const text = useLocalText();
  const [params] = useSearchParams();
  const reportid = params.get('reportid') ?? '';
  const q = useAction('as.m.exam.getCUserReport', { reportid }, { enabled: !!reportid });
  if (!reportid) return <Result status="info" title={k('noReport')} subTitle={k('noReportHint')} data-testid="report-none" />;
  if (q.error) return <ErrorState error={q.error} onRetry={() => q.refetch()} />;
  const r = q.data;
  if (!r) return <Spin style={{ display: 'block', padding: 64 }} data-testid="report-loading" />;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="report-page">
      <ReportHeader report={r} actions={<ReportActions report={r} />} />
      {r.voided === 1 && <Alert type="error" showIcon title={k('voided')} description={text(r.voidreason)} />}
      {r.warnings.length > 0 && (
        <Alert
          type="warning"
          showIcon
          title={k('warnings')}
          data-testid="report-warnings"
          description={
            <ul style={{ margin: 0, paddingInlineStart: 18 }}>
              {r.warnings.map((w, i) => (
                <li key={i}>{text(w.reason)}</li>
              ))}
            </ul>
          }
        />
      )}
      <IndicatorSection indicators={r.indicators} convention={r.convention} />
      <NormSection report={r} />
      <TrendSection report={r} />
      {isPhq9(r.formcode, r.formname) && <Phq9Section report={r} />}
      <AnswerSection answers={r.answers} />
      <CommentSection report={r} />
    </Space>
  );
}

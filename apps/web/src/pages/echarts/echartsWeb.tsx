/**
 * The report page (hidden route /echarts/web?reportid=…): what staff open after a screening.
 * Who scored what (header with the person and the form version), what it means (every
 * indicator's score, band, level, interpretation and advice), how it has moved (earlier results
 * of the same form), the answers, staff comments, and the print / PDF / show-hide buttons.
 * Without `reportid` the same route is the big screen (BigScreen.tsx, see wall.ts). A custom
 * report (issue 31 §4) is laid out by its template version instead (TemplatedReport.tsx).
 */
import { Card, Result, Space, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import type { ReportDetail } from '@xinli/contract';
import { useAction } from '../../components/query';
import { useAccess } from '../../components/access';
import { Waiting } from '../../components/list';
import ReportActions from './ReportActions';
import PageLoading from '../../components/feedback/PageLoading';
import './report.css';
import { isWallDisplay } from './wall';
import { isPhq9 } from './report-data';
import NormSection from '../../features/norms/NormSection';
import { AnswerSection, CommentSection, IndicatorSection, Phq9Section, ReportAlerts, ReportBasics, TrendSection, useReportText } from './ReportParts';
import TemplatedReport from './TemplatedReport';

/** The wall display (its own chunk: the report page does not load it). */
const BigScreen = lazy(() => import('./BigScreen'));

function ReportHeader({ report, actions }: { report: ReportDetail; actions?: React.ReactNode }) {
  const k = useReportText();
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
      <ReportBasics report={report} />
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
  const [params] = useSearchParams();
  const reportid = params.get('reportid') ?? '';
  const q = useAction('as.m.exam.getCUserReport', { reportid }, { enabled: !!reportid });
  if (!reportid) return <Result status="info" title={k('noReport')} subTitle={k('noReportHint')} data-testid="report-none" />;
  const r = q.data;
  if (!r) return <Waiting query={q} />;
  // A custom report: the server's layout of its template version, as the print has it.
  if (r.layout) return <TemplatedReport report={r} layout={r.layout} />;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="report-page">
      <ReportHeader report={r} actions={<ReportActions report={r} />} />
      <ReportAlerts report={r} />
      <IndicatorSection indicators={r.indicators} convention={r.convention} />
      <NormSection report={r} />
      <TrendSection report={r} />
      {isPhq9(r.formcode, r.formname) && <Phq9Section report={r} />}
      <AnswerSection answers={r.answers} />
      <CommentSection report={r} />
    </Space>
  );
}

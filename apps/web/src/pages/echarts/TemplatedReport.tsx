/**
 * The custom report's page (issue 31 §4): a report whose template version the server chose
 * (reports/custom/use.ts, the same choice its print follows) is shown as that version lays it
 * out: its header (title, name, logo), then its sections in its order and only those. Its band
 * texts arrive as the indicators' interpretations. Staff tools (print, PDF, show/hide, comments)
 * stay as on the standard page.
 */
import { Card, Empty, Space, Typography } from 'antd';
import type { ReportDetail, ReportLayout, ReportSection } from '@xinli/contract';
import { LevelTag } from '../../components/levels';
import { useLocalText } from '../../lib/options';
import NormSection from '../../features/norms/NormSection';
import { useT } from '../../i18n/useT';
import ReportActions from './ReportActions';
import { isPhq9 } from './report-data';
import { AnswerSection, CommentSection, IndicatorSection, Phq9Section, ReportAlerts, ReportBasics, TrendSection, useReportText } from './ReportParts';

function Masthead({ report, layout }: { report: ReportDetail; layout: ReportLayout }) {
  const k = useReportText();
  return (
    <Card size="small" data-testid="report-header">
      <div className="report-masthead">
        {layout.logo && <img src={layout.logo} alt="" data-testid="report-logo" />}
        <div className="report-masthead-titles">
          <Typography.Text type="secondary" data-testid="report-headername">
            {layout.headername}
          </Typography.Text>
          <Typography.Title level={4} style={{ margin: '2px 0' }} data-testid="report-title">
            {layout.title || k('title')}
          </Typography.Title>
          <Space wrap size={8}>
            <Typography.Text strong>{report.formname}</Typography.Text>
            <Typography.Text type="secondary" data-testid="report-version">
              {k('version')} v{report.version}
            </Typography.Text>
          </Space>
        </div>
        <Typography.Text type="secondary">
          {k('reportid')}: {report.reportid}
        </Typography.Text>
      </div>
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0 12px', fontSize: 12 }} data-testid="report-by-template">
        {k('custom.byTemplate', { name: layout.name, version: layout.version })}
      </Typography.Paragraph>
      <div className="report-actions">
        <ReportActions report={report} />
      </div>
    </Card>
  );
}

/** The print's summary: who and what, the overall state (in the basics), the warning and its reasons. */
function Summary({ report: r }: { report: ReportDetail }) {
  const k = useReportText();
  return (
    <Card size="small" title={k('custom.summary')} data-testid="report-summary">
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <ReportBasics report={r} />
        <span data-testid="report-warning-state">
          <Typography.Text type="secondary">{k('custom.warning')}: </Typography.Text>
          {r.warning ? <LevelTag level={4} label={k('custom.warningYes')} /> : <Typography.Text>{k('custom.warningNo')}</Typography.Text>}
        </span>
        <ReportAlerts report={r} />
      </Space>
    </Card>
  );
}

/** The print's norm section: the comparison, or one neutral line when the form has no norm. */
function Norms({ report }: { report: ReportDetail }) {
  const k = useT('echarts.norms');
  if (report.norm || report.trend.at(-1)?.change) return <NormSection report={report} />;
  return (
    <Card size="small" title={k('title')} data-testid="report-norms">
      <Typography.Text type="secondary">{k('noNorm')}</Typography.Text>
    </Card>
  );
}

/** Each indicator's advice, apart from its interpretation (as the print lays it out). */
function Advice({ report }: { report: ReportDetail }) {
  const k = useReportText();
  const text = useLocalText();
  const items = report.indicators.filter((i) => text(i.advice));
  return (
    <Card size="small" title={k('custom.advice')} data-testid="report-advice">
      {items.length ? (
        <ul style={{ margin: 0, paddingInlineStart: 18 }}>
          {items.map((i) => (
            <li key={i.code} style={{ whiteSpace: 'pre-wrap' }}>
              <Typography.Text strong>{text(i.name)}</Typography.Text>
              {k('custom.listColon')}
              {text(i.advice)}
            </li>
          ))}
        </ul>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k('custom.adviceNone')} />
      )}
    </Card>
  );
}

function SignOff({ layout }: { layout: ReportLayout }) {
  const k = useReportText();
  return (
    <Card size="small" title={k('custom.signoff')} data-testid="report-signoff">
      <Typography.Paragraph>{layout.signoff || k('custom.signer')}</Typography.Paragraph>
      <Typography.Paragraph>{k('custom.signdate')}</Typography.Paragraph>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {k('custom.template', { name: layout.name, version: layout.version })}
      </Typography.Text>
    </Card>
  );
}

function Section({ section, report: r, layout }: { section: ReportSection; report: ReportDetail; layout: ReportLayout }) {
  switch (section) {
    case 'summary':
      return <Summary report={r} />;
    case 'indicators':
      return <IndicatorSection indicators={r.indicators} convention={r.convention} custom />;
    case 'norms':
      return <Norms report={r} />;
    case 'trend':
      return (
        <>
          <TrendSection report={r} />
          {isPhq9(r.formcode, r.formname) && <Phq9Section report={r} />}
        </>
      );
    case 'answers':
      return <AnswerSection answers={r.answers} />;
    case 'advice':
      return <Advice report={r} />;
    case 'comments':
      return <CommentSection report={r} />;
    case 'signoff':
      return <SignOff layout={layout} />;
  }
}

export default function TemplatedReport({ report, layout }: { report: ReportDetail; layout: ReportLayout }) {
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="report-page" data-layout="template">
      <Masthead report={report} layout={layout} />
      {/* A template shapes the document, not what staff must see: a voided sheet or a warning shows on
          screen even when the template leaves out the summary that carries them in print. */}
      {!layout.sections.includes('summary') && <ReportAlerts report={report} />}
      {layout.sections.map((s) => (
        <div key={s} data-section={s}>
          <Section section={s} report={report} layout={layout} />
        </div>
      ))}
    </Space>
  );
}

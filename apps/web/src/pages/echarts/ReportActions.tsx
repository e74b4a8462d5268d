/**
 * The report page's buttons: Print (the server's A4 document printed from a hidden iframe),
 * Download PDF (only when the server can make PDFs), and back to the population's list.
 */
import type { ReactNode } from 'react';
import { Button, Space, Tag } from 'antd';
import { ArrowLeftOutlined, EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import type { ReportDetail } from '@xinli/contract';
import { useAction } from '../../components/query';
import { useAccess } from '../../components/access';
import { useConfirmCall } from '../../components/list';
import { ExportButton } from '../../components/transfer';
import { pagesOf } from '../../lib/populations';
import { PrintButton } from '../../features/reports/PrintButton';
import { useReportText } from './ReportParts';

/** The printable document of a report (html and whether the server makes PDFs), per language. */
export function useReportDocument(reportid: string) {
  return useAction('as.m.exam.getReportDocument', { reportid }, { staleTime: 60_000 });
}

/** Show or hide the report to its respondent (asked first), with where it stands now. */
function VisibilityButton({ report }: { report: ReportDetail }) {
  const k = useReportText();
  const confirm = useConfirmCall();
  const { can } = useAccess();
  const hidden = report.hidden === 1;
  const state = (
    <Tag color={hidden ? 'default' : 'success'} icon={hidden ? <EyeInvisibleOutlined /> : <EyeOutlined />} data-testid="report-visibility" data-hidden={report.hidden}>
      {k(hidden ? 'hidden' : 'shown')}
    </Tag>
  );
  if (!can('as.m.cuser.showOrHiddenReport')) return state;
  return (
    <>
      {state}
      <Button
        onClick={() =>
          void confirm({
            action: 'as.m.cuser.showOrHiddenReport',
            input: { reportid: report.reportid, hidden: hidden ? 0 : 1 },
            content: k(hidden ? 'showConfirm' : 'hideConfirm'),
            success: k(hidden ? 'showDone' : 'hideDone'),
            invalidates: ['as.m.exam.getCUserReport', 'as.m.exam.getCUserReportPageList'],
          })
        }
        data-testid="report-toggle"
      >
        {k(hidden ? 'show' : 'hide')}
      </Button>
    </>
  );
}

export default function ReportActions({ report, extra }: { report: ReportDetail; extra?: ReactNode }) {
  const k = useReportText();
  const navigate = useNavigate();
  const { can } = useAccess();
  const doc = useReportDocument(report.reportid);
  const back = pagesOf(report.appid)?.reports;

  return (
    <Space wrap>
      {can('as.m.exam.getReportDocument') && (
        <PrintButton doc={doc} data-testid="report-print">
          {k('print')}
        </PrintButton>
      )}
      {doc.data?.pdf && (
        <ExportButton action="as.m.exam.exportReportPdf" input={{ reportid: report.reportid }} filename={`${report.realname}-${report.formname}.pdf`} data-testid="report-pdf">
          {k('downloadPdf')}
        </ExportButton>
      )}
      <VisibilityButton report={report} />
      {extra}
      <Button icon={<ArrowLeftOutlined />} onClick={() => (back ? navigate(back) : navigate(-1))}>
        {k('toList')}
      </Button>
    </Space>
  );
}

/**
 * The report page's buttons: Print (the server's A4 document printed from a hidden iframe),
 * Download PDF (only when the server can make PDFs), and back to the population's list.
 */
import { useState, type ReactNode } from 'react';
import { App as AntApp, Button, Space } from 'antd';
import { ArrowLeftOutlined, PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { ReportDetail } from '@xinli/contract';
import { call } from '../../api';
import { useAccess } from '../../components/access';
import { ExportButton } from '../../components/transfer';
import { useLang } from '../../lib/options';
import { pagesOf } from '../../lib/populations';
import { printHtml } from './report-data';
import { useReportText } from './ReportParts';

/** The printable document of a report (html and whether the server makes PDFs), per language. */
export function useReportDocument(reportid: string) {
  const { can } = useAccess();
  const lang = useLang();
  return useQuery({
    queryKey: ['as.m.exam.getReportDocument', { reportid }, lang],
    queryFn: () => call('as.m.exam.getReportDocument', { reportid }),
    enabled: can('as.m.exam.getReportDocument'),
    staleTime: 60_000,
  });
}

export default function ReportActions({ report, extra }: { report: ReportDetail; extra?: ReactNode }) {
  const k = useReportText();
  const navigate = useNavigate();
  const { message } = AntApp.useApp();
  const { can } = useAccess();
  const doc = useReportDocument(report.reportid);
  const [printing, setPrinting] = useState(false);
  const back = pagesOf(report.appid)?.reports;

  const print = async () => {
    setPrinting(true);
    try {
      const html = doc.data?.html ?? (await doc.refetch()).data?.html;
      if (html) await printHtml(html);
    } catch (err) {
      message.error(err instanceof Error ? err.message : String(err));
    } finally {
      setPrinting(false);
    }
  };
  return (
    <Space wrap>
      {can('as.m.exam.getReportDocument') && (
        <Button icon={<PrinterOutlined />} loading={printing || doc.isLoading} onClick={() => void print()} data-testid="report-print">
          {k('print')}
        </Button>
      )}
      {doc.data?.pdf && (
        <ExportButton action="as.m.exam.exportReportPdf" input={{ reportid: report.reportid }} filename={`${report.realname}-${report.formname}.pdf`} data-testid="report-pdf">
          {k('downloadPdf')}
        </ExportButton>
      )}
      {extra}
      <Button icon={<ArrowLeftOutlined />} onClick={() => (back ? navigate(back) : navigate(-1))}>
        {k('toList')}
      </Button>
    </Space>
  );
}

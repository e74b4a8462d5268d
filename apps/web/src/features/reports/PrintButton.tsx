import { useState, type ReactNode } from 'react';
import { App as AntApp, Button } from 'antd';
import { LoadingOutlined, PrinterOutlined } from '@ant-design/icons';
import { printHtml } from './print';

/**
 * Prints a server-rendered A4 document (a report's or a group report's) without leaving the page:
 * the document query's HTML, fetched first when it is not there yet, and awaited when a fetch is
 * in flight (a comment just added refetches the document: the one held is without it). A failure
 * is said in a message. The first load only spins the icon: a loading antd button swallows clicks,
 * and a click then would print nothing and say nothing.
 */
export function PrintButton({
  doc,
  children,
  'data-testid': testId,
}: {
  doc: {
    data?: { html: string } | undefined;
    isLoading: boolean;
    isFetching: boolean;
    refetch: (options: { cancelRefetch: boolean }) => Promise<{ data?: { html: string } | undefined }>;
  };
  children: ReactNode;
  'data-testid'?: string;
}) {
  const { message } = AntApp.useApp();
  const [printing, setPrinting] = useState(false);
  const print = async () => {
    setPrinting(true);
    try {
      const html = doc.data && !doc.isFetching ? doc.data.html : (await doc.refetch({ cancelRefetch: false })).data?.html;
      if (html) await printHtml(html);
    } catch (err) {
      message.error(err instanceof Error ? err.message : String(err));
    } finally {
      setPrinting(false);
    }
  };
  return (
    <Button icon={doc.isLoading ? <LoadingOutlined /> : <PrinterOutlined />} loading={printing} onClick={() => void print()} data-testid={testId}>
      {children}
    </Button>
  );
}

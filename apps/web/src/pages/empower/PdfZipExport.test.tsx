/**
 * The drawer of PDF exports reads its list when opened: a failed read shows its error with a retry
 * (it showed an empty list, as if there were no exports), and the answer once it comes.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import '../../i18n';
import { heldAnswer } from '../../test/held';

/** The list of exports, answered (or refused) when the test says so. */
const exports = heldAnswer<unknown>();
vi.mock('../../api', async (original) => {
  const real = await original<typeof import('../../api')>();
  return { ...real, call: vi.fn(async (name: string) => (name === 'as.m.exam.getReportPdfZipPage' ? exports.next() : null)) };
});

vi.mock('../../components/access', async (original) => {
  const real = await original<typeof import('../../components/access')>();
  return { ...real, useAccess: () => ({ can: () => true }) };
});

const { default: PdfZipExport } = await import('./PdfZipExport');

function openDrawer() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AntApp>
        <PdfZipExport filter={{ appid: '000000002' }} total={3} />
      </AntApp>
    </QueryClientProvider>,
  );
  fireEvent.click(screen.getByTestId('pdf-exports'));
  return () => screen.getByTestId('pdf-exports-drawer');
}

describe('the PDF exports drawer', { timeout: 30_000 }, () => {
  it('shows a failed read with a retry, not an empty list, and the exports once read', async () => {
    const drawer = openDrawer();
    await waitFor(() => expect(within(drawer()).getByRole('status').textContent).toContain('加载中'));
    exports.refuse(new Error('网络错误'));
    await waitFor(() => expect(within(drawer()).getByText('数据加载失败')).toBeTruthy());
    expect(within(drawer()).queryByText('暂无后台导出')).toBeNull();
    fireEvent.click(within(drawer()).getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(within(drawer()).getByRole('status')).toBeTruthy());
    exports.answer({ total: 0, rows: [] });
    await waitFor(() => expect(within(drawer()).getByText('暂无后台导出')).toBeTruthy());
  });
});

/**
 * The print button prints the document as it is now: a comment added a moment ago refetches the
 * report's document, and a click before that refetch ended printed the one without the comment
 * (seen in e2e/reports.spec.ts on a loaded machine).
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import '../../i18n';

const printed: string[] = [];
vi.mock('./print', () => ({ printHtml: vi.fn(async (html: string) => void printed.push(html)) }));
const { PrintButton } = await import('./PrintButton');

function doc(over: Partial<Parameters<typeof PrintButton>[0]['doc']>) {
  return { data: { html: 'old' }, isLoading: false, isFetching: false, refetch: vi.fn(async () => ({ data: { html: 'new' } })), ...over };
}
const show = (d: ReturnType<typeof doc>) =>
  render(
    <AntApp>
      <PrintButton doc={d} data-testid="print">
        Print
      </PrintButton>
    </AntApp>,
  );

describe('PrintButton', () => {
  it('waits for a refetch in flight and prints what it brings', async () => {
    printed.length = 0;
    const d = doc({ isFetching: true });
    show(d);
    fireEvent.click(screen.getByTestId('print'));
    await waitFor(() => expect(printed).toEqual(['new']));
    // Joined, not started over.
    expect(d.refetch).toHaveBeenCalledWith({ cancelRefetch: false });
  });

  it('prints the document it holds when nothing is being fetched, and fetches one it does not hold', async () => {
    printed.length = 0;
    const held = doc({});
    const { unmount } = show(held);
    fireEvent.click(screen.getByTestId('print'));
    await waitFor(() => expect(printed).toEqual(['old']));
    expect(held.refetch).not.toHaveBeenCalled();
    unmount();
    const none = doc({ data: undefined });
    show(none);
    fireEvent.click(screen.getByTestId('print'));
    await waitFor(() => expect(printed).toEqual(['old', 'new']));
  });

  it('takes a click while the document is still loading and prints it when it arrives', async () => {
    // A loading antd button swallows clicks: a click on a slow first load printed nothing and
    // said nothing (seen in e2e/norms.spec.ts on a loaded machine).
    printed.length = 0;
    const loading = doc({ data: undefined, isLoading: true, isFetching: true });
    show(loading);
    fireEvent.click(screen.getByTestId('print'));
    await waitFor(() => expect(printed).toEqual(['new']));
    expect(loading.refetch).toHaveBeenCalledWith({ cancelRefetch: false });
  });
});

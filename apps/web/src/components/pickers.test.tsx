/**
 * The institution picker (25 dialogs and filters use it) reads its options once: while the read
 * is under way or after it failed, its dropdown said "no data", as if the caller had none.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import '../i18n';
import { heldAnswer } from '../test/held';

const institutions = heldAnswer<unknown[]>();
vi.mock('../api', async (original) => {
  const real = await original<typeof import('../api')>();
  return {
    ...real,
    call: vi.fn(async (name: string) => (name === 'as.m.system.muser.selectInstitutionList' ? institutions.next() : null)),
  };
});

vi.mock('./access', async (original) => {
  const real = await original<typeof import('./access')>();
  return { ...real, useAccess: () => ({ can: () => true }) };
});

const { InstitutionSelect, useInstitutions } = await import('./pickers');
const { call } = await import('../api');

/** A dialog's institution field: shown when the caller has several institutions. */
function Field() {
  const { many } = useInstitutions();
  return many ? <InstitutionSelect open /> : <span>one institution</span>;
}

describe('the institution picker', { timeout: 30_000 }, () => {
  // Each test counts its own reads (in any order: a shuffled run put the counting one second).
  beforeEach(() => vi.mocked(call).mockClear());

  it('shows a failed read with a retry, not an empty list, and says so when there is none', async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <InstitutionSelect open />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(call).toHaveBeenCalled());
    institutions.refuse(new Error('网络错误'));
    expect(await screen.findByTestId('options-failed')).toBeTruthy();
    expect(screen.queryByText('未找到机构')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(call).toHaveBeenCalledTimes(2));
    institutions.answer([]);
    expect(await screen.findByText('未找到机构')).toBeTruthy();
  });

  it('is shown when the read failed, not hidden as for one institution', async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <Field />
      </QueryClientProvider>,
    );
    expect(screen.getByText('one institution')).toBeTruthy();
    await waitFor(() => expect(call).toHaveBeenCalled());
    institutions.refuse(new Error('网络错误'));
    // The picker shown reads once more as it opens; failed again, it says so with a retry.
    await waitFor(() => expect(call).toHaveBeenCalledTimes(2));
    institutions.refuse(new Error('网络错误'));
    expect(await screen.findByTestId('options-failed')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(call).toHaveBeenCalledTimes(3));
    institutions.answer([{ musercode: 'I0001', insname: '第一中学' }]);
    expect(await screen.findByText('one institution')).toBeTruthy();
  });
});

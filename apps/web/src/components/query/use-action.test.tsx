/**
 * The kit's data hook: one call keyed by action, input and language, found again by the `[name]`
 * key writes invalidate, never sent when the caller may not make it, cancelled when the page is left.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import '../../i18n';

const calls: { name: string; input: unknown; signal?: AbortSignal; silent?: boolean }[] = [];
const roles = { current: [] as string[] };

vi.mock('../../api', async (original) => {
  const real = await original<typeof import('../../api')>();
  return {
    ...real,
    call: vi.fn((name: string, input: unknown, o: { signal?: AbortSignal; silent?: boolean } = {}) => {
      calls.push({ name, input, ...o });
      // Answers only when not cancelled first: a page left mid-call.
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve({ total: calls.length, rows: [] }), 20);
        o.signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new DOMException('aborted', 'AbortError'));
        });
      });
    }),
  };
});
vi.mock('../../auth', async (original) => {
  const real = await original<typeof import('../../auth')>();
  return {
    ...real,
    usePermission: () => ({ roles: roles.current, hasCode: (c: string) => roles.current.includes(c), hasAny: () => false }),
  };
});

const { useAction } = await import('.');

const ROLES = 'as.m.system.role.selectRoleList';
const input = { page: 1, pageSize: 10 };

function setup() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return { client, wrapper };
}

afterEach(() => {
  calls.length = 0;
  roles.current = [];
});

describe('useAction', () => {
  it('calls the action once, keyed by name, input and language, and refetches when `[name]` is invalidated', async () => {
    roles.current = ['admin'];
    const { client, wrapper } = setup();
    const { result } = renderHook(() => useAction(ROLES, input, { silent: true }), { wrapper });
    await waitFor(() => expect(result.current.data).toEqual({ total: 1, rows: [] }));
    expect(calls).toMatchObject([{ name: ROLES, input, silent: true }]);
    expect(calls[0].signal).toBeInstanceOf(AbortSignal);
    expect(client.getQueryCache().find({ queryKey: [ROLES, input], exact: false })?.queryKey).toEqual([ROLES, input, 'zh-CN']);

    await client.invalidateQueries({ queryKey: [ROLES] });
    await waitFor(() => expect(result.current.data).toEqual({ total: 2, rows: [] }));
  });

  it('sends no call the caller may not make, nor one the page disables', async () => {
    const { wrapper } = setup();
    const refused = renderHook(() => useAction(ROLES, input), { wrapper });
    roles.current = ['admin'];
    const disabled = renderHook(() => useAction(ROLES, input, { enabled: false }), { wrapper });
    await new Promise((r) => setTimeout(r, 40));
    expect(calls).toEqual([]);
    expect(refused.result.current.fetchStatus).toBe('idle');
    expect(disabled.result.current.fetchStatus).toBe('idle');
  });

  it('passes select and cancels the call when the page is left', async () => {
    roles.current = ['admin'];
    const { wrapper } = setup();
    const { result, unmount } = renderHook(() => useAction(ROLES, input, { select: (d) => d.total }), { wrapper });
    await waitFor(() => expect(result.current.data).toBe(1));

    const left = renderHook(() => useAction(ROLES, { ...input, page: 2 }), { wrapper });
    await waitFor(() => expect(calls).toHaveLength(2));
    left.unmount();
    unmount();
    expect(calls[1].signal?.aborted).toBe(true);
  });
});

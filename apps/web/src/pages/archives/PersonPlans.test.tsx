/**
 * The assessments given to a person, on their archive page: a failed read shows its error with a
 * retry (it said "no assessment given yet"), and "none given" only once the answer is empty.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import '../../i18n';
import { heldAnswer } from '../../test/held';

const plans = heldAnswer<unknown[]>();
vi.mock('../../api', async (original) => {
  const real = await original<typeof import('../../api')>();
  return { ...real, call: vi.fn(async (name: string) => (name === 'as.m.cuser.getCUserPlan' ? plans.next() : null)) };
});

vi.mock('../../components/access', async (original) => {
  const real = await original<typeof import('../../components/access')>();
  return { ...real, useAccess: () => ({ can: () => true }) };
});

const { default: PersonPlans } = await import('./PersonPlans');

describe("a person's assessments", { timeout: 30_000 }, () => {
  it('shows a failed read with a retry, not "none given", and "none given" once the answer is empty', async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AntApp>
          <PersonPlans cusercode="C1" />
        </AntApp>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('加载中'));
    plans.refuse(new Error('网络错误'));
    await waitFor(() => expect(screen.getByText('数据加载失败')).toBeTruthy());
    expect(screen.queryByText('尚未分配测评')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(screen.getByRole('status')).toBeTruthy());
    plans.answer([]);
    await waitFor(() => expect(screen.getByText('尚未分配测评')).toBeTruthy());
  });
});

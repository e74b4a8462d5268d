/**
 * The plan's detail drawer reads its stages: while they load it says so (it read "no stages"
 * until the answer came), a failed read shows its error with a retry.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import type { PlanRow } from '@xinli/contract';
import '../../../i18n';
import { heldAnswer } from '../../../test/held';

/** The plan's stages, answered (or refused) when the test says so. */
const stages = heldAnswer<unknown[]>();
vi.mock('../../../api', async (original) => {
  const real = await original<typeof import('../../../api')>();
  return {
    ...real,
    call: vi.fn(async (name: string) => {
      if (name === 'as.m.exam.plan.getPlanStage') return stages.next();
      if (name === 'as.m.exam.plan.getPlanAuthorizeList') return { total: 0, rows: [] };
      return [];
    }),
  };
});

vi.mock('../../../components/access', async (original) => {
  const real = await original<typeof import('../../../components/access')>();
  return { ...real, useAccess: () => ({ can: () => true }) };
});

const { default: PlanDetail } = await import('./PlanDetail');

const plan = { plancode: 'P1', planname: '秋季心理普查', appid: '000000002', description: '', enabled: 1 } as PlanRow;

function open() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AntApp>
        <PlanDetail plan={plan} onClose={() => undefined} onAuthorize={() => undefined} />
      </AntApp>
    </QueryClientProvider>,
  );
  return () => screen.getByText('测评阶段').closest('.ant-card') as HTMLElement;
}

describe('the plan detail', { timeout: 30_000 }, () => {
  it('says it is loading the stages, not that there are none, and then that there are none', async () => {
    const card = open();
    await waitFor(() => expect(within(card()).getByRole('status').textContent).toContain('加载中'));
    expect(within(card()).queryByText('未设置阶段')).toBeNull();
    stages.answer([]);
    await waitFor(() => expect(within(card()).getByText('未设置阶段')).toBeTruthy());
  });

  it('shows a failed read of the stages with a retry that reads them again', async () => {
    const card = open();
    await waitFor(() => expect(within(card()).getByRole('status')).toBeTruthy());
    stages.refuse(new Error('网络错误'));
    await waitFor(() => expect(within(card()).getByText('数据加载失败')).toBeTruthy());
    fireEvent.click(within(card()).getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(within(card()).getByRole('status')).toBeTruthy());
    stages.answer([{ stagecode: 'S1', stagename: '入学', forms: [] }]);
    await waitFor(() => expect(within(card()).getByText('入学')).toBeTruthy());
  });
});

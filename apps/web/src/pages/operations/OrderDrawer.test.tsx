/**
 * An order's drawer whose read fails says so and offers a retry (it showed a spinner for good),
 * and the retry's answer is shown.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import '../../i18n';

let reads = 0;
vi.mock('../../api', async (original) => {
  const real = await original<typeof import('../../api')>();
  return {
    ...real,
    call: vi.fn(async (name: string) => {
      if (name !== 'as.m.order.getOrderHistory') return null;
      if (++reads === 1) throw new Error('网络不可用');
      return {
        order: {
          orderid: 'O1',
          goodsname: '焦虑自评',
          quantity: 1,
          amount: 990,
          refunded: 0,
          status: 3,
          buyername: '李女士',
          buyerphone: '138****0000',
          grant: null,
        },
        events: [{ seq: 1, fromstatus: null, tostatus: 3, amount: 990, at: '2026-03-01T02:00:00.000Z', by: 'buyer', note: '' }],
      };
    }),
  };
});
vi.mock('../../components/access', async (original) => {
  const real = await original<typeof import('../../components/access')>();
  return { ...real, useAccess: () => ({ can: () => true }) };
});

const { default: OrderDrawer } = await import('./OrderDrawer');

describe('the order drawer', () => {
  it('shows a failed read with a retry, and the order once the retry answers', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <AntApp>
          <OrderDrawer orderid="O1" onClose={() => undefined} />
        </AntApp>
      </QueryClientProvider>,
    );
    expect(await screen.findByTestId('list-error')).toBeTruthy();
    expect(screen.getByText('网络不可用')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    expect((await screen.findByTestId('order-drawer-status')).textContent).toBeTruthy();
    expect(screen.getByText('O1')).toBeTruthy();
    expect(screen.queryByTestId('list-error')).toBeNull();
  });
});

/**
 * The person picker of a registration reads its options as staff type: a failed read says so in
 * the dropdown with a retry (it said "no matching person"), and "no matching person" only when the
 * answer is empty.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import '../../i18n';
import { heldAnswer } from '../../test/held';

const persons = heldAnswer<unknown[]>();
vi.mock('../../api', async (original) => {
  const real = await original<typeof import('../../api')>();
  return { ...real, call: vi.fn(async (name: string) => (name === 'as.m.registration.getPersonOptions' ? persons.next() : null)) };
});

vi.mock('../../components/access', async (original) => {
  const real = await original<typeof import('../../components/access')>();
  return { ...real, useAccess: () => ({ can: () => true }) };
});

const { default: PersonPicker } = await import('./PersonPicker');

describe('the person picker', { timeout: 30_000 }, () => {
  it('shows a failed read with a retry, not "no matching person", and the persons once read', async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AntApp>
          <PersonPicker open />
        </AntApp>
      </QueryClientProvider>,
    );
    const { call } = await import('../../api');
    await waitFor(() => expect(call).toHaveBeenCalled());
    persons.refuse(new Error('网络错误'));
    expect(await screen.findByTestId('options-failed')).toBeTruthy();
    expect(screen.queryByText('没有匹配的测评对象')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(call).toHaveBeenCalledTimes(2));
    persons.answer([]);
    expect(await screen.findByText('没有匹配的测评对象')).toBeTruthy();
  });
});

/**
 * The plan editor reads a plan's stages and scales before it can be edited: until they are here
 * and in the form, neither its fields nor its Save take anything (typing into a field under the
 * spinner was replaced by the arriving plan; a Save sent the plan without its stages).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import type { PlanRow } from '@xinli/contract';
import '../../../i18n';
import { heldAnswer } from '../../../test/held';

const calls: { name: string; input: unknown }[] = [];
/** The plan's stages, answered (or refused) when the test says so. */
const stages = heldAnswer<unknown[]>();
vi.mock('../../../api', async (original) => {
  const real = await original<typeof import('../../../api')>();
  return {
    ...real,
    call: vi.fn(async (name: string, input: unknown) => {
      calls.push({ name, input });
      if (name === 'as.m.exam.plan.getPlanStage') return stages.next();
      if (name === 'as.m.exam.plan.getPlanForm') return [{ formcode: 'F_GAD7', stagecode: '' }];
      return null;
    }),
  };
});

vi.mock('../../../components/access', async (original) => {
  const real = await original<typeof import('../../../components/access')>();
  return { ...real, useAccess: () => ({ can: () => true }) };
});

const { default: PlanEditor } = await import('./PlanEditor');

function open(onClose = () => undefined, client = new QueryClient({ defaultOptions: { queries: { retry: false } } })) {
  render(
    <QueryClientProvider client={client}>
      <AntApp>
        <PlanEditor plan={plan} onClose={onClose} onSaved={() => undefined} />
      </AntApp>
    </QueryClientProvider>,
  );
}

const plan = { plancode: 'P1', planname: '秋季心理普查', appid: '000000002', description: '', enabled: 1 } as PlanRow;

beforeEach(() => {
  calls.length = 0;
});

describe('the plan editor', () => {
  it('takes no input and no save until the plan’s stages are in its form, then saves them', async () => {
    open();
    await waitFor(() => expect(calls.some((c) => c.name === 'as.m.exam.plan.getPlanStage')).toBe(true));
    expect(screen.queryByTestId('plan-name')).toBeNull();
    expect(screen.getByTestId('plan-save').hasAttribute('disabled')).toBe(true);

    stages.answer([{ stagecode: 'S1', forms: [{ formcode: 'F_PHQ9' }] }]);
    const name = (await screen.findByTestId('plan-name')) as HTMLInputElement;
    expect(name.value).toBe(plan.planname);
    expect(screen.getByTestId('plan-save').hasAttribute('disabled')).toBe(false);
    fireEvent.click(screen.getByTestId('plan-save'));
    await waitFor(() => expect(calls.some((c) => c.name === 'as.m.exam.plan.updateMUserExamPlan')).toBe(true));
    expect(calls.find((c) => c.name === 'as.m.exam.plan.updateMUserExamPlan')!.input).toEqual({
      plancode: 'P1',
      planname: plan.planname,
      description: '',
      enabled: 1,
      stages: [{ stagecode: 'S1', formcodes: ['F_PHQ9'] }],
      formcodes: ['F_GAD7'],
    });
  });

  it('shows a failed read with a retry inside the editor, which stays open, and the retry fills it', async () => {
    const onClose = vi.fn();
    open(onClose);
    await waitFor(() => expect(calls.some((c) => c.name === 'as.m.exam.plan.getPlanStage')).toBe(true));
    stages.refuse(new Error('网络错误'));
    expect(await screen.findByTestId('list-error')).toBeTruthy();
    expect(screen.getByText('网络错误')).toBeTruthy();
    expect(screen.getByTestId('plan-save').hasAttribute('disabled')).toBe(true);
    expect(onClose).not.toHaveBeenCalled();

    calls.length = 0;
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(calls.some((c) => c.name === 'as.m.exam.plan.getPlanStage')).toBe(true));
    stages.answer([{ stagecode: 'S1', forms: [] }]);
    expect(((await screen.findByTestId('plan-name')) as HTMLInputElement).value).toBe(plan.planname);
    expect(screen.queryByTestId('list-error')).toBeNull();
    expect(screen.getByTestId('plan-save').hasAttribute('disabled')).toBe(false);
  });

  it('waits for a fresh read, not the stages its detail drawer left in the cache, and saves what that read gave', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(['as.m.exam.plan.getPlanStage', { plancode: 'P1' }, 'zh-CN'], [{ stagecode: 'OLD', forms: [] }]);
    client.setQueryData(['as.m.exam.plan.getPlanForm', { plancode: 'P1' }, 'zh-CN'], []);
    open(undefined, client);
    await waitFor(() => expect(calls.some((c) => c.name === 'as.m.exam.plan.getPlanStage')).toBe(true));
    expect(screen.queryByTestId('plan-name')).toBeNull();
    expect(screen.getByTestId('plan-save').hasAttribute('disabled')).toBe(true);

    stages.answer([{ stagecode: 'S2', forms: [] }]);
    await screen.findByTestId('plan-name');
    fireEvent.click(screen.getByTestId('plan-save'));
    await waitFor(() => expect(calls.some((c) => c.name === 'as.m.exam.plan.updateMUserExamPlan')).toBe(true));
    expect(calls.find((c) => c.name === 'as.m.exam.plan.updateMUserExamPlan')!.input).toMatchObject({
      stages: [{ stagecode: 'S2' }],
      formcodes: ['F_GAD7'],
    });
  });
});

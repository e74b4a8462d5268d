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

const calls: { name: string; input: unknown }[] = [];
/** The plan's stages, answered when the test says so. */
let answerStages: (stages: unknown[]) => void = () => undefined;
vi.mock('../../../api', async (original) => {
  const real = await original<typeof import('../../../api')>();
  return {
    ...real,
    call: vi.fn(async (name: string, input: unknown) => {
      calls.push({ name, input });
      if (name === 'as.m.exam.plan.getPlanStage') return new Promise((resolve) => (answerStages = resolve));
      if (name === 'as.m.exam.plan.getPlanForm') return [{ formcode: 'F_GAD7', stagecode: '' }];
      return null;
    }),
  };
});

const { default: PlanEditor } = await import('./PlanEditor');

const plan = { plancode: 'P1', planname: '秋季心理普查', appid: '000000002', description: '', enabled: 1 } as PlanRow;

beforeEach(() => {
  calls.length = 0;
});

describe('the plan editor', () => {
  it('takes no input and no save until the plan’s stages are in its form, then saves them', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <AntApp>
          <PlanEditor plan={plan} onClose={() => undefined} onSaved={() => undefined} />
        </AntApp>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(calls.some((c) => c.name === 'as.m.exam.plan.getPlanStage')).toBe(true));
    expect(screen.queryByTestId('plan-name')).toBeNull();
    expect(screen.getByTestId('plan-save').hasAttribute('disabled')).toBe(true);

    answerStages([{ stagecode: 'S1', forms: [{ formcode: 'F_PHQ9' }] }]);
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
});

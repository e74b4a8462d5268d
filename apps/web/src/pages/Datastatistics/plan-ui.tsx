/** What the two data report pages share: the plan status words and tags, the plan filter's options. */
import { useMemo } from 'react';
import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAction } from '../../components/query';
import { useAccess } from '../../components/access';
import { f, type FilterDef } from '../../components/list';
import { useT } from '../../i18n/useT';
import type { KeyOf } from '../../i18n/keys';

export const RESOURCE = 'Datastatistics.plan';
const PLANS = 'as.m.exam.plan.getMUserExamPlanPage';

export function useP() {
  return useT(RESOURCE);
}

export const STATUSES = ['pending', 'active', 'expiring', 'expired'] as const;

/**
 * The filters of the plan authorisations: institution, plan (when the caller may list plans:
 * the data reports' codes alone cannot) and status.
 */
export function usePlanFilters(): FilterDef[] {
  const { t } = useTranslation();
  const p = useT(RESOURCE);
  const { can } = useAccess();
  const canPlans = can(PLANS);
  const plans = useAction(PLANS, { page: 1, pageSize: 200 }, { staleTime: 60_000 });
  const options = (plans.data?.rows ?? []).map((x) => ({ value: x.plancode, label: x.planname }));
  const optionsKey = JSON.stringify(options);
  return useMemo(
    () => [
      f.institution(),
      ...(canPlans ? [f.select('plancode', options, { width: 200 })] : []),
      f.select(
        'status',
        STATUSES.map((s) => ({ value: s, label: p(`statuses.${s}`) })),
        { width: 130 },
      ),
    ],
    // The option list is a new array on every render: its content decides.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [optionsKey, canPlans, t],
  );
}

const COLOURS: Record<string, string> = { pending: 'default', active: 'success', expired: 'error' };

/** The authorisation's status, with "expiring" when it ends within 30 days. */
export function StatusTags({ status, expiring }: { status: string; expiring: boolean }) {
  const p = useP();
  return (
    <Space size={4} wrap>
      <Tag color={COLOURS[status]}>{p(`statuses.${status as KeyOf<'Datastatistics.plan.statuses'>}`)}</Tag>
      {expiring && <Tag color="warning">{p('statuses.expiring')}</Tag>}
    </Space>
  );
}

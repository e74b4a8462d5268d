import { useQuery } from '@tanstack/react-query';
import { call } from '../../../api';

/** Stage picker options of one app, grouped by exam category. */
export function useStageOptions(appid: string | undefined) {
  const q = useQuery({
    queryKey: ['as.m.app.exam.getExamStageListGroupByAppidCategoryid', { appid }],
    queryFn: () => call('as.m.app.exam.getExamStageListGroupByAppidCategoryid', { appid: appid! }),
    enabled: !!appid,
  });
  const options = (q.data ?? []).map((g) => ({
    label: g.categoryname,
    title: g.categoryname,
    options: g.stages.map((s) => ({ value: s.stagecode, label: s.stagename })),
  }));
  return { options, loading: q.isLoading };
}

/** Scale picker options of one app: enabled built-in and own scales. */
export function useFormOptions(appid: string | undefined) {
  const q = useQuery({
    queryKey: ['as.m.exam.getExamForms', { appid }],
    queryFn: () => call('as.m.exam.getExamForms', { appid: appid! }),
    enabled: !!appid,
  });
  return { options: (q.data ?? []).map((f) => ({ value: f.formcode, label: f.formname })), loading: q.isLoading };
}

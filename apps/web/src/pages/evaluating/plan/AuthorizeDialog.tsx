import { DatePicker, InputNumber } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { planActions, type PlanRow } from '@xinli/contract';
import { call } from '../../../api';
import { Field, FormDialog } from '../../../components/form';
import { InstitutionInput } from './InstitutionInput';
import { useT } from '../../../i18n/useT';

interface AuthValues {
  musercode: string;
  count: number;
  range: [Dayjs, Dayjs];
}

/** Authorise a plan to an institution for a number of assessments between two dates. */
export default function AuthorizeDialog({ plan, onClose, onDone }: { plan: PlanRow | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const k = useT('evaluating.plans');
  return (
    <FormDialog<AuthValues>
      open={!!plan}
      title={plan ? k('authorizeTitle', { name: plan.planname }) : ''}
      action={planActions['as.m.exam.plan.authorizePlan']}
      resource="evaluating.plans"
      layout="vertical"
      values={{ count: 100, range: [dayjs(), dayjs().add(1, 'year')] }}
      success={k('authorized')}
      onSubmit={(v) =>
        call('as.m.exam.plan.authorizePlan', {
          plancode: plan!.plancode,
          musercode: v.musercode.trim(),
          count: v.count,
          startdate: v.range[0].format('YYYY-MM-DD'),
          enddate: v.range[1].format('YYYY-MM-DD'),
        })
      }
      invalidates={['as.m.exam.plan.getPlanAuthorizeList']}
      onClose={onClose}
      onSaved={onDone}
    >
      <Field name="musercode" label={k('institution')} extra={k('institutionHint')}>
        <InstitutionInput />
      </Field>
      <Field name="count">
        <InputNumber min={1} max={10_000_000} precision={0} style={{ width: 200 }} />
      </Field>
      <Field
        name="range"
        label={k('validity')}
        required
        rules={[{ required: true, message: t('common.choose', { field: k('validity') }) }]}
      >
        <DatePicker.RangePicker allowClear={false} />
      </Field>
    </FormDialog>
  );
}

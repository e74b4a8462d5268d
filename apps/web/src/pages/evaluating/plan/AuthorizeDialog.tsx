import { useState } from 'react';
import { App, DatePicker, Form, InputNumber, Modal } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PlanRow } from '@xinli/contract';
import { call } from '../../../api';
import { InstitutionInput } from './InstitutionInput';

interface AuthValues {
  musercode: string;
  count: number;
  range: [Dayjs, Dayjs];
}

/** Authorise a plan to an institution for a number of assessments between two dates. */
export default function AuthorizeDialog({ plan, onClose, onDone }: { plan: PlanRow | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<AuthValues>();
  const [busy, setBusy] = useState(false);
  const k = (key: string, o?: Record<string, unknown>) => t(`evaluating.plans.${key}`, o);

  const submit = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      await call('as.m.exam.plan.authorizePlan', {
        plancode: plan!.plancode,
        musercode: v.musercode.trim(),
        count: v.count,
        startdate: v.range[0].format('YYYY-MM-DD'),
        enddate: v.range[1].format('YYYY-MM-DD'),
      });
      message.success(k('authorized'));
      await queryClient.invalidateQueries({ queryKey: ['as.m.exam.plan.getPlanAuthorizeList'] });
      onDone();
    } catch {
      // Shown by the request client.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={!!plan}
      title={plan ? k('authorizeTitle', { name: plan.planname }) : ''}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={busy}
      okText={t('evaluating.common.confirm')}
      cancelText={t('evaluating.common.cancel')}
      destroyOnHidden
      afterOpenChange={(open) => open && form.setFieldsValue({ count: 100, range: [dayjs(), dayjs().add(1, 'year')] })}
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="musercode" label={k('institution')} rules={[{ required: true, whitespace: true }]} extra={k('institutionHint')}>
          <InstitutionInput />
        </Form.Item>
        <Form.Item name="count" label={k('count')} rules={[{ required: true }]}>
          <InputNumber min={1} max={10_000_000} precision={0} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="range" label={k('validity')} rules={[{ required: true }]}>
          <DatePicker.RangePicker allowClear={false} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

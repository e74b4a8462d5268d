import { useEffect, useState } from 'react';
import { Alert, App, Button, Card, Col, Drawer, Form, Input, Row, Select, Space, Switch, Typography, type SelectProps } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { planActions, type PlanRow } from '@xinli/contract';
import { call } from '../../../api';
import { useApps } from '../../../components/pickers';
import { AddRowButton, ContractFields, Field, RemoveRowButton } from '../../../components/form';
import OrderButtons from '../../../components/OrderButtons';
import { TextlessAlert } from '../../../components/textless';
import { ErrorState, LoadingState } from '../../../components/list';
import { useAction } from '../../../components/query';
import { useFormOptions, useStageOptions, useTextlessInPlan } from './usePlanOptions';
import { useT } from '../../../i18n/useT';

interface PlanValues {
  planname: string;
  appid: string;
  description?: string;
  iscommon?: boolean;
  enabled?: boolean;
  stages: { stagecode?: string; formcodes?: string[] }[];
  formcodes: string[];
}

/** Create or edit a plan: its name, population, stages in order (each with its scales) and scales outside stages. */
export default function PlanEditor({ plan, onClose, onSaved }: { plan: PlanRow | 'new' | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<PlanValues>();
  const apps = useApps();
  const appid = Form.useWatch('appid', form);
  const stages = useStageOptions(appid);
  const forms = useFormOptions(appid);
  const textless = useTextlessInPlan(Form.useWatch('stages', form), Form.useWatch('formcodes', form), forms.textless);
  const [busy, setBusy] = useState(false);
  const isNew = plan === 'new';
  const k = useT('evaluating.plans');

  // The plan's stages and scales when editing, read afresh each time the editor opens: the plan is
  // saved whole, so not from the copy its detail drawer left in the cache.
  const editing = plan && plan !== 'new' ? plan : null;
  const read = { enabled: !!editing, staleTime: 0 };
  const planStages = useAction('as.m.exam.plan.getPlanStage', { plancode: editing?.plancode ?? '' }, read);
  const planForms = useAction('as.m.exam.plan.getPlanForm', { plancode: editing?.plancode ?? '' }, read);
  const fetching = planStages.isFetching || planForms.isFetching;
  const fresh = !fetching && [planStages, planForms].every((q) => q.isSuccess && q.isFetchedAfterMount);
  // A retry shows the loading state again, not the old error.
  const error = fetching ? null : (planStages.error ?? planForms.error);
  const arrived = editing && fresh ? editing.plancode : undefined;
  // The plan whose stages and scales are in the form. Until then its fields are not shown and Save
  // is off (as in FormDialog): what was typed would be replaced by the arriving plan.
  const [filled, setFilled] = useState<string>();
  const waiting = !!editing && (!arrived || filled !== arrived);

  useEffect(() => {
    if (!plan) return setFilled(undefined);
    if (plan === 'new')
      form.setFieldsValue({ planname: '', appid: undefined, description: '', iscommon: false, stages: [], formcodes: [] });
  }, [plan, form]);
  useEffect(() => {
    if (!editing || !arrived) return;
    form.setFieldsValue({
      planname: editing.planname,
      appid: editing.appid,
      description: editing.description,
      enabled: editing.enabled === 1,
      stages: planStages.data!.map((s) => ({ stagecode: s.stagecode, formcodes: s.forms.map((f) => f.formcode) })),
      formcodes: planForms.data!.filter((f) => !f.stagecode).map((f) => f.formcode),
    });
    setFilled(arrived);
    // Filled once a plan's reads are here: a later render with the same answers changes nothing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [arrived, form]);

  const submit = async () => {
    let v: PlanValues;
    try {
      v = await form.validateFields();
    } catch {
      return; // The form shows what is wrong.
    }
    const stageList = (v.stages ?? [])
      .filter((s) => s.stagecode)
      .map((s) => ({ stagecode: s.stagecode!, ...(s.formcodes?.length ? { formcodes: s.formcodes } : {}) }));
    setBusy(true);
    try {
      const fields = { planname: v.planname.trim(), description: v.description ?? '', stages: stageList, formcodes: v.formcodes ?? [] };
      if (isNew) await call('as.m.exam.plan.insertMUserExamPlan', { ...fields, appid: v.appid, iscommon: v.iscommon ? 1 : 0 });
      else if (plan) await call('as.m.exam.plan.updateMUserExamPlan', { ...fields, plancode: plan.plancode, enabled: v.enabled ? 1 : 0 });
      message.success(t('common.saved'));
      onSaved();
    } catch {
      // Shown by the request client.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Drawer
      open={!!plan}
      onClose={onClose}
      size={860}
      destroyOnHidden
      title={isNew ? k('createTitle') : k('editTitle', { name: plan ? (plan as PlanRow).planname : '' })}
      extra={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" icon={<SaveOutlined />} loading={busy} disabled={waiting} onClick={submit} data-testid="plan-save">
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      <ContractFields action={planActions['as.m.exam.plan.insertMUserExamPlan']} resource="evaluating.plans">
        <Form form={form} layout="vertical">
          {error ? (
            <ErrorState
              error={error}
              onRetry={() => {
                void planStages.refetch();
                void planForms.refetch();
              }}
            />
          ) : waiting ? (
            <LoadingState />
          ) : (
            <>
              <Row gutter={16}>
                <Field span={12} name="planname">
                  <Input data-testid="plan-name" />
                </Field>
                <Field span={12} name="appid">
                  <Select
                    options={apps.options}
                    disabled={!isNew}
                    onChange={() => form.setFieldsValue({ stages: [], formcodes: [] })}
                    data-testid="plan-app"
                  />
                </Field>
                <Col span={18}>
                  <Form.Item name="description" label={k('description')}>
                    <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={1000} />
                  </Form.Item>
                </Col>
                <Col span={6}>
                  {isNew ? (
                    <Form.Item name="iscommon" label={k('iscommon')} valuePropName="checked">
                      <Switch />
                    </Form.Item>
                  ) : (
                    <Form.Item name="enabled" label={t('common.status')} valuePropName="checked">
                      <Switch checkedChildren={t('common.enabled')} unCheckedChildren={t('common.disabled')} />
                    </Form.Item>
                  )}
                </Col>
              </Row>
              {!appid && <Alert type="info" showIcon title={k('chooseApp')} style={{ marginBottom: 12 }} />}
              <TextlessAlert names={textless} style={{ marginBottom: 12 }} />
              <Card size="small" title={k('stages')} style={{ marginBottom: 12 }}>
                <Typography.Paragraph type="secondary">{k('stagesHelp')}</Typography.Paragraph>
                <Form.List name="stages">
                  {(fields, { add, remove, move }) => (
                    <Space orientation="vertical" style={{ width: '100%' }}>
                      {fields.map((f, i) => (
                        <div key={f.key} className="plan-stage-row" style={{ display: 'flex', gap: 8, alignItems: 'flex-start' }}>
                          <span style={{ lineHeight: '32px', width: 24, color: 'rgba(0,0,0,.45)' }}>{i + 1}.</span>
                          <Form.Item
                            name={[f.name, 'stagecode']}
                            rules={[{ required: true, message: k('chooseStage') }]}
                            style={{ width: 240, marginBottom: 0 }}
                          >
                            <Select options={stages.options} loading={stages.loading} placeholder={k('chooseStage')} disabled={!appid} />
                          </Form.Item>
                          <Form.Item name={[f.name, 'formcodes']} style={{ flex: 1, marginBottom: 0 }}>
                            <FormsSelect forms={forms} disabled={!appid} placeholder={k('stageFormsPlaceholder')} />
                          </Form.Item>
                          <OrderButtons index={i} count={fields.length} onMove={move} down={false} />
                          <RemoveRowButton onClick={() => remove(f.name)} />
                        </div>
                      ))}
                      <AddRowButton size="middle" onClick={() => add({ formcodes: [] })} disabled={!appid}>
                        {k('addStage')}
                      </AddRowButton>
                    </Space>
                  )}
                </Form.List>
              </Card>
              <Card size="small" title={k('looseForms')}>
                <Form.Item name="formcodes" style={{ marginBottom: 0 }}>
                  <FormsSelect forms={forms} disabled={!appid} placeholder={k('chooseForms')} data-testid="plan-forms" />
                </Form.Item>
              </Card>
            </>
          )}
        </Form>
      </ContractFields>
    </Drawer>
  );
}

/** The scales of a stage or of the plan's loose forms: several, searchable by name. */
function FormsSelect({ forms, ...props }: { forms: ReturnType<typeof useFormOptions> } & SelectProps<string[]>) {
  return <Select mode="multiple" options={forms.options} loading={forms.loading} showSearch={{ optionFilterProp: 'label' }} {...props} />;
}

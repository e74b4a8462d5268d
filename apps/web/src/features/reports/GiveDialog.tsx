import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Form, Modal, Select, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { noOptions } from '../../components/pickers';
import CodeSlips, { type CodeSlip } from '../../components/code-slips/CodeSlips';
import { TextlessAlert } from '../../components/textless';
import { useT } from '../../i18n/useT';

export interface GivePerson {
  cusercode: string;
  realname: string;
  musercode: string;
}

/** The plans usable by every institution of the chosen persons (own or authorised, with what is left). */
function usePlans(musercodes: string[], appid: string | undefined, enabled: boolean) {
  const input = { musercodes, appid: appid ?? '', page: 1, pageSize: 200 };
  const q = useAction('as.m.exam.plan.getMultipleMUserExamPlanPage', input, { enabled: enabled && musercodes.length > 0 });
  // A plan is offered when each institution holds it (one row per institution and plan).
  const data = q.data;
  const plans = useMemo(() => {
    type Row = NonNullable<typeof data>['rows'][number];
    const byPlan = new Map<string, Row[]>();
    for (const r of data?.rows ?? []) byPlan.set(r.plancode, [...(byPlan.get(r.plancode) ?? []), r]);
    return [...byPlan.values()].filter((list) => musercodes.every((m) => list.some((r) => r.holder === m)));
  }, [data, musercodes]);
  return { plans, loading: q.isLoading, read: q };
}

/**
 * Give a plan, or one stage of it, to one person or to the selected persons: one one-time code
 * each, then the codes as slips with their links and QR codes, ready to print.
 */
export default function GiveDialog({
  persons,
  appid,
  onClose,
  giveOne,
}: {
  persons: GivePerson[];
  appid?: string;
  onClose: () => void;
  /** Gives one person's code another way (a warning case's rescreen records it on the case). */
  giveOne?: (plancode: string, stagecode: string | undefined) => Promise<{ assesscode: string; url: string }>;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const k = useT('empower.assess');
  const open = persons.length > 0;
  const [form] = Form.useForm<{ plancode: string; stagecode?: string }>();
  const [slips, setSlips] = useState<CodeSlip[] | null>(null);
  const [busy, setBusy] = useState(false);
  const musercodes = useMemo(() => [...new Set(persons.map((p) => p.musercode))], [persons]);
  const { plans, loading, read: plansRead } = usePlans(musercodes, appid, open);
  const plancode = Form.useWatch('plancode', form);
  const stages = useAction('as.m.exam.plan.getPlanStage', { plancode: plancode ?? '' }, { enabled: !!plancode });

  useEffect(() => {
    if (open) {
      form.resetFields();
      setSlips(null);
    }
  }, [open, form]);

  const planOptions = plans.map((list) => {
    const r = list[0];
    const auth = list.length === 1 && r.origin === 'authorized' && r.count !== null;
    return {
      value: r.plancode,
      label: auth ? t('common.bracketed', { text: r.planname, detail: k('authorized', { left: r.count! - (r.usedcount ?? 0), end: r.enddate ?? '' }) }) : r.planname,
    };
  });
  const planName = (code: string) => plans.find((l) => l[0].plancode === code)?.[0].planname ?? code;
  // Scales without item text cannot be given (the server refuses, naming them): said before
  // submitting, and the stages holding one cannot be chosen.
  const textlessStage = (s: { forms: { textless: boolean }[] }) => s.forms.some((f) => f.textless);
  const textless = (stages.data ?? []).flatMap((s) => s.forms.filter((f) => f.textless).map((f) => f.formname));
  const stageOptions = (stages.data ?? []).map((s) => ({
    value: s.stagecode,
    label: textlessStage(s) ? t('evaluating.library.textlessOption', { name: s.stagename }) : s.stagename,
    disabled: textlessStage(s),
  }));

  const submit = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      const stagecode = v.stagecode || undefined;
      const codes =
        persons.length === 1
          ? [
              giveOne
                ? { cusercode: persons[0].cusercode, ...(await giveOne(v.plancode, stagecode)) }
                : await call('as.m.user.insertCUserAssessCode', { cusercode: persons[0].cusercode, plancode: v.plancode, stagecode }),
            ]
          : (
              await call('as.m.user.insertCUserAssessCodes', {
                cusercodes: persons.map((p) => p.cusercode),
                plancode: v.plancode,
                stagecode,
              })
            ).codes;
      const name = (c: string) => persons.find((p) => p.cusercode === c)?.realname ?? c;
      const stage = stages.data?.find((s) => s.stagecode === stagecode)?.stagename;
      setSlips(
        codes.map((c) => ({
          ...c,
          realname: name(c.cusercode),
          planname: stage ? `${planName(v.plancode)} · ${stage}` : planName(v.plancode),
        })),
      );
      void queryClient.invalidateQueries({ queryKey: ['as.m.cuser.getCUserPlan'] });
      void queryClient.invalidateQueries({ queryKey: ['as.m.exam.plan.getMultipleMUserExamPlanPage'] });
    } catch {
      // The request client has shown the server's reason (an expired or used-up authorisation).
    } finally {
      setBusy(false);
    }
  };

  const title = persons.length === 1 ? k('giveTitle', { names: persons[0].realname }) : k('giveTitleMany', { count: persons.length });
  return (
    <Modal
      open={open}
      title={slips ? k('resultTitle') : title}
      onCancel={onClose}
      width={slips ? 760 : 560}
      destroyOnHidden
      footer={
        slips ? (
          <Button onClick={onClose}>{t('common.close')}</Button>
        ) : (
          <>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="primary" loading={busy} onClick={submit} data-testid="give-submit">
              {k('submit')}
            </Button>
          </>
        )
      }
    >
      {slips ? (
        <>
          <Alert type="success" showIcon title={k('given', { count: slips.length })} style={{ marginBottom: 8 }} />
          <CodeSlips slips={slips} />
        </>
      ) : (
        <Form form={form} layout="vertical">
          {persons.length > 1 && (
            <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }}>
              {persons.map((p) => p.realname).join('、')}
            </Typography.Paragraph>
          )}
          <Form.Item
            name="plancode"
            label={k('plancode')}
            rules={[{ required: true, message: t('common.choose', { field: k('plancode') }) }]}
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              options={planOptions}
              loading={loading}
              notFoundContent={noOptions(plansRead, k('noPlans'))}
              onChange={() => form.setFieldValue('stagecode', undefined)}
              data-testid="give-plan"
            />
          </Form.Item>
          <Form.Item name="stagecode" label={k('stagecode')} extra={k('stageHelp')}>
            <Select
              allowClear
              disabled={!plancode}
              placeholder={k('wholePlan')}
              loading={stages.isLoading && !!plancode}
              options={stageOptions}
              data-testid="give-stage"
            />
          </Form.Item>
          <TextlessAlert names={textless} />
        </Form>
      )}
    </Modal>
  );
}

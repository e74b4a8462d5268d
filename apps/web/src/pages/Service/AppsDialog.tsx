import { useEffect, useMemo } from 'react';
import { Checkbox, Form, Select, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MUserRow } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { useSession } from '../../auth';
import { ErrorState } from '../../components/list';
import { FormDialog } from '../../components/form';
import { useStages } from '../../components/pickers';

interface AppsForm {
  appids: string[];
  stagecodes: string[];
}

const APPS = 'as.m.app.muser.getMUserAppList';

/**
 * The population apps an account may use (`insertMUserApp` replaces them; the caller offers
 * only its own apps) and more assessment stages for it (`addAppsAndStages` adds the caller's
 * stages, never removes).
 */
export default function AppsDialog({ account, onClose }: { account: MUserRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { session } = useSession();
  const [form] = Form.useForm<AppsForm>();
  const open = !!account;
  const theirs = useAction(APPS, { musercode: account?.musercode ?? '' }, { enabled: open, staleTime: 0 });
  const mine = useAction(APPS, { musercode: session?.user.musercode ?? '' }, { enabled: open && !!session, staleTime: 0 });
  const stages = useStages();

  // Its present apps stay in the list even when the caller lacks one, so it can be taken back.
  const options = useMemo(() => {
    const seen = new Map<string, string>();
    for (const a of [...(mine.data ?? []), ...(theirs.data ?? [])]) if (!seen.has(a.appid)) seen.set(a.appid, a.appname);
    const own = new Set((mine.data ?? []).map((a) => a.appid));
    return [...seen].map(([value, label]) => ({ value, label, disabled: !own.has(value) }));
  }, [mine.data, theirs.data]);

  useEffect(() => {
    if (open && theirs.data) form.setFieldsValue({ appids: theirs.data.map((a) => a.appid), stagecodes: [] });
  }, [open, theirs.data, form]);

  async function submit(v: AppsForm) {
    await call('as.m.app.muser.insertMUserApp', { musercode: account!.musercode, appids: v.appids ?? [] });
    if (v.stagecodes?.length) await call('as.m.muser.addAppsAndStages', { musercode: account!.musercode, appids: [], stagecodes: v.stagecodes });
  }

  const error = theirs.error ?? mine.error;
  return (
    <FormDialog<AppsForm>
      open={open}
      title={t('Service.account.appsTitle', { name: account?.insname ?? '' })}
      resource="Service.account"
      form={form}
      width={640}
      layout="vertical"
      okDisabled={!!error || !theirs.data}
      onSubmit={submit}
      onClose={onClose}
      invalidates={['as.m.app.muser.getMUserAppList']}
      data-testid="apps-dialog"
    >
      {error ? (
        <ErrorState error={error} onRetry={() => void theirs.refetch().then(() => mine.refetch())} />
      ) : (
        <Spin spinning={theirs.isLoading || mine.isLoading}>
          <Form.Item name="appids" label={t('Service.account.appsOwned')} extra={t('Service.account.appsHint')}>
            <Checkbox.Group options={options} data-testid="apps-checks" />
          </Form.Item>
          <Form.Item name="stagecodes" label={t('Service.account.stagesAdd')} extra={t('Service.account.stagesHint')}>
            <Select mode="multiple" allowClear loading={stages.loading} options={stages.options} optionFilterProp="label" data-testid="apps-stages" />
          </Form.Item>
          {options.length === 0 && !theirs.isLoading && <Typography.Text type="secondary">{t('common.empty')}</Typography.Text>}
        </Spin>
      )}
    </FormDialog>
  );
}

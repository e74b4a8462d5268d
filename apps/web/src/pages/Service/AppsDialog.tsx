import { useMemo } from 'react';
import { Checkbox, Form, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MUserRow } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { useSession } from '../../auth';
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

  async function submit(v: AppsForm) {
    await call('as.m.app.muser.insertMUserApp', { musercode: account!.musercode, appids: v.appids ?? [] });
    if (v.stagecodes?.length) await call('as.m.muser.addAppsAndStages', { musercode: account!.musercode, appids: [], stagecodes: v.stagecodes });
  }

  return (
    <FormDialog<AppsForm>
      open={open}
      title={t('Service.account.appsTitle', { name: account?.insname ?? '' })}
      resource="Service.account"
      form={form}
      width={640}
      layout="vertical"
      values={theirs.data && { appids: theirs.data.map((a) => a.appid), stagecodes: [] }}
      load={{
        error: theirs.error ?? mine.error,
        loading: theirs.isLoading || mine.isLoading,
        retry: () => void theirs.refetch().then(() => mine.refetch()),
      }}
      onSubmit={submit}
      onClose={onClose}
      invalidates={['as.m.app.muser.getMUserAppList']}
      data-testid="apps-dialog"
    >
      <Form.Item name="appids" label={t('Service.account.appsOwned')} extra={t('Service.account.appsHint')}>
        <Checkbox.Group options={options} data-testid="apps-checks" />
      </Form.Item>
      <Form.Item name="stagecodes" label={t('Service.account.stagesAdd')} extra={t('Service.account.stagesHint')}>
        <Select mode="multiple" allowClear loading={stages.loading} options={stages.options} optionFilterProp="label" data-testid="apps-stages" />
      </Form.Item>
      {options.length === 0 && <Typography.Text type="secondary">{t('common.empty')}</Typography.Text>}
    </FormDialog>
  );
}

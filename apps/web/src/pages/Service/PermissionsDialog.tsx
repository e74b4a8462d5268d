import { useMemo } from 'react';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { menuTable, type MenuNode, type MenuTreeNode, type MUserRow } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { FormDialog } from '../../components/form';
import MenuTreePicker from '../../features/system/MenuTreePicker';

const node = (code: string, title: string, children: MenuTreeNode[] = []): MenuTreeNode => ({
  code,
  parentcode: null,
  path: '',
  name: code,
  title,
  titlezh: title,
  titleen: title,
  hidden: false,
  sort: 0,
  children,
});

/**
 * The codes the caller may grant as the menu tree of SPEC §2 (menu labels in the page's
 * language, each code once), then the grantable codes no menu carries (feature codes such as
 * 0000901) as "feature permission" leaves.
 */
export function grantTree(grantable: string[], lang: 'zh-CN' | 'en-US', featureTitle: string): MenuTreeNode[] {
  const allowed = new Set(grantable);
  const seen = new Set<string>();
  const walk = (menus: MenuNode[]): MenuTreeNode[] =>
    menus.flatMap((m) => {
      if (!m.code || seen.has(m.code)) return [];
      seen.add(m.code);
      const children = walk(m.children ?? []);
      if (!allowed.has(m.code) && children.length === 0) return [];
      return [node(m.code, lang === 'en-US' ? m.en : m.zh, children)];
    });
  const tree = walk(menuTable);
  const rest = grantable.filter((c) => !seen.has(c));
  return [...tree, ...rest.map((c) => node(c, featureTitle))];
}

/**
 * The permission codes of an account (`getAllPermissions` / `updateUserPermissions`): the caller
 * changes only the codes it holds itself; the account's other codes stay as they are.
 */
export default function PermissionsDialog({ account, onClose }: { account: MUserRow | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<{ codes: string[] }>();
  const open = !!account;
  const q = useAction('as.m.permissions.getAllPermissions', { musercode: account?.musercode ?? '' }, { enabled: open, staleTime: 0 });
  const lang = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  const tree = useMemo(() => grantTree(q.data?.grantable ?? [], lang, t('Service.account.featureCode')), [q.data, lang, t]);

  async function submit({ codes }: { codes: string[] }) {
    const grantable = new Set(q.data!.grantable);
    const chosen = (codes ?? []).filter((c) => grantable.has(c));
    const untouchable = q.data!.granted.filter((c) => !grantable.has(c));
    await call('as.m.permissions.updateUserPermissions', { musercode: account!.musercode, permissions: [...new Set([...chosen, ...untouchable])] });
  }

  return (
    <FormDialog<{ codes: string[] }>
      open={open}
      title={t('Service.account.permissionsTitle', { name: account?.insname ?? '' })}
      resource="Service.account"
      form={form}
      width={640}
      layout="vertical"
      values={q.data && { codes: q.data.granted.filter((c) => q.data.grantable.includes(c)) }}
      load={{ error: q.error, loading: q.isLoading, retry: () => void q.refetch() }}
      onSubmit={submit}
      onClose={onClose}
      invalidates={['as.m.permissions.getAllPermissions']}
      data-testid="permissions-dialog"
    >
      {/* Mounted with its data (the dialog's fields wait for it), so the tree opens expanded. */}
      <Form.Item name="codes" extra={t('Service.account.permissionsHint')}>
        <MenuTreePicker menus={tree} />
      </Form.Item>
    </FormDialog>
  );
}

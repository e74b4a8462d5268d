import { useState } from 'react';
import { App as AntApp, Button, Space, Tag, Tooltip, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { DownloadOutlined } from '@ant-design/icons';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { enumLabel, MUserType, type ActionInput, type CategoryNode, type MUserRow } from '@xinli/contract';
import { call, download } from '../../api';
import { openActingTab, useSession } from '../../auth';
import { useAccess } from '../../components/access';
import { f, ListView, maskPhone, TreeFilter, useListPage, useTreeParam, WithTreeFilter } from '../../components/list';
import { ExportButton } from '../../components/transfer';
import AccountDialog, { typesOf } from './AccountDialog';
import AppsDialog from './AppsDialog';
import ClientDialog from './ClientDialog';
import MoveDialog from './MoveDialog';
import PermissionsDialog from './PermissionsDialog';
import SecondFactorTag, { secondFactorFilter } from '../../features/system/SecondFactorTag';
import { fieldsToPath, useCategoryTree, type AccountKind } from './CategoryPathPicker';
import './service.css';

const toTreeData = (nodes: CategoryNode[], parent = ''): DataNode[] =>
  nodes.map((n) => {
    const key = `${parent}/${n.code}`;
    return {
      key,
      title: (
        <span>
          {n.code} <Typography.Text type="secondary">({n.count})</Typography.Text>
        </span>
      ),
      children: n.children.length ? toTreeData(n.children, key) : undefined,
    };
  });

/** The category tree on the left: choosing a node lists the accounts with that label in their path. */
function CategoryFilter({ kind, value, onChange }: { kind: AccountKind; value?: string; onChange: (key: string | undefined) => void }) {
  const { t } = useTranslation();
  return (
    <TreeFilter
      title={t('Service.account.categoryTree')}
      searchPlaceholder={t('Service.account.categorySearch')}
      query={useCategoryTree(kind)}
      label={categoryLabel}
      toTreeData={toTreeData}
      value={value}
      // Choosing the chosen category again lists every category.
      onSelect={onChange}
      testId="category-tree"
    />
  );
}

const categoryLabel = (n: CategoryNode) => n.code;

type Dialog = 'edit' | 'client' | 'apps' | 'permissions' | 'move';

/**
 * Institution management (terminal, 00021) and provider management (usersManager, 00022): one
 * list of accounts in scope of either kind, with the category tree, create and edit, enable,
 * delete, category moves, respondent entry and QR code, apps and stages, permissions,
 * login-as, and the exports (the list as .xlsx; the QR codes of the chosen rows as a zip).
 */
export default function AccountsPage({ kind }: { kind: AccountKind }) {
  const { t, i18n } = useTranslation();
  const { message } = AntApp.useApp();
  const { session } = useSession();
  const { can } = useAccess();
  const location = useLocation();
  const me = session?.user.musercode;
  // The selected tree node is its path ("/学校/一中"); the list filters by its last label.
  const [category, setCategory] = useTreeParam('category');
  const categorycode = category?.split('/').pop();
  const types = typesOf(kind);
  const list = useListPage('as.m.user.getMUserPageList', {
    resource: 'Service.account',
    filters: [
      f.text('insname', { maxLength: 100, width: 170, label: kind === 'provider' ? t('Service.account.providerName') : undefined }),
      f.text('username', { maxLength: 30, width: 150 }),
      ...(types.length > 1 ? [f.enumOf('musertype', types, { width: 140 })] : []),
      f.region(),
      f.enabled(),
      secondFactorFilter(t),
    ],
    input: { kind, ...(categorycode ? { categorycode } : {}) },
    invalidates: ['as.m.user.getMUserCategoryTree'],
  });
  const [dialog, setDialog] = useState<{ kind: Dialog | null; account: MUserRow | null }>({ kind: null, account: null });
  const open = (d: Dialog, account: MUserRow | null) => setDialog({ kind: d, account });
  const close = () => setDialog({ kind: null, account: null });
  const at = (d: Dialog) => (dialog.kind === d ? dialog.account : null);
  const [selected, setSelected] = useState<string[]>([]);
  const owners = !!list.rows?.some((r) => r.parentcode && r.parentcode !== me);
  const { col } = list;
  const lang = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  const typeTag = (type: string) => (
    <Tag variant="filled" style={{ fontSize: 12, marginInlineEnd: 0 }}>
      {enumLabel(MUserType, type, lang)}
    </Tag>
  );

  async function loginAs(r: MUserRow) {
    const tab = openActingTab();
    if (!tab) return void message.error(t('Service.account.loginAsBlocked'));
    try {
      const record = await call('as.m.user.loginAs', { musercode: r.musercode });
      const user = session!.user;
      const actor = user.userid ? `${user.insname} · ${user.realname || user.sysusername}` : user.insname || user.username;
      tab.show(record, actor, location.pathname + location.search);
      message.success(t('Service.account.loginAsOpened', { name: r.insname }));
    } catch {
      tab.cancel();
    }
  }

  const exportInput = { ...list.filters, kind, ...(categorycode ? { categorycode } : {}) };
  const zipName = `${t(kind === 'provider' ? 'Service.account.providerName' : 'Service.account.qrcodeTitle')}.zip`;
  return (
    <WithTreeFilter
      stackBelow="xl"
      tree={
        <CategoryFilter
          kind={kind}
          value={category}
          onChange={setCategory}
        />
      }
    >
      <ListView<MUserRow>
        list={list}
        add={{ action: 'as.m.user.addMUser', onClick: () => open('edit', null), testId: 'account-add' }}
        actions={
          <>
            <ExportButton
              action="as.m.user.exportToFile"
              input={exportInput as ActionInput<'as.m.user.exportToFile'>}
              data-testid="account-export"
            >
              {t('Service.account.exportList')}
            </ExportButton>
            {kind === 'institution' && can('as.m.user.exportToZipFile') && (
              <Tooltip title={selected.length ? undefined : t('Service.account.exportQrHint')}>
                <Button
                  icon={<DownloadOutlined />}
                  disabled={!selected.length}
                  onClick={() => void download('as.m.user.exportToZipFile', { musercodes: selected }, zipName).catch(() => undefined)}
                  data-testid="account-export-qr"
                >
                  {selected.length ? t('Service.account.exportQrSome', { count: selected.length }) : t('Service.account.exportQr')}
                </Button>
              </Tooltip>
            )}
          </>
        }
        rowKey="musercode"
        rowSelection={
          kind === 'institution' && can('as.m.user.exportToZipFile')
            ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)), preserveSelectedRowKeys: true }
            : undefined
        }
        columns={[
          col.text('insname', {
            ...(kind === 'provider' ? { title: t('Service.account.providerName') } : {}),
            width: 180,
            // The sign-in account and type sit under the name: two columns fewer, so 1440 px shows them all.
            render: (name: string, r) => (
              <Space orientation="vertical" size={0}>
                <Space size={4} wrap>
                  {name}
                  {r.musercode === me && <Tag color="blue">{t('Service.account.self')}</Tag>}
                </Space>
                <Space size={6} wrap>
                  <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
                    {r.username}
                  </Typography.Text>
                  {typeTag(r.musertype)}
                  <SecondFactorTag on={r.secondfactor} testId={`account-second-factor-${r.username}`} />
                </Space>
              </Space>
            ),
          }),
          ...(owners ? [col.text('parentname', { width: 120 })] : []),
          col.text('realname', {
            width: 110,
            render: (name: string, r) => (
              <Space orientation="vertical" size={0}>
                {name || '—'}
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {maskPhone(r.phonenumber)}
                </Typography.Text>
              </Space>
            ),
          }),
          // The category path sits under the region: one column fewer, so that no column passes
          // under the fixed actions column at 1440 px, beside the category tree too (issue 28).
          col.text('regionname', {
            width: 150,
            render: (region: string, r) => {
              const path = fieldsToPath(r);
              return (
                <Space orientation="vertical" size={0}>
                  {region || '—'}
                  <Typography.Text type="secondary" style={{ fontSize: 12 }} title={t('Service.account.categoryPath')} data-testid={`account-category-${r.username}`}>
                    {path.length ? path.join(' / ') : t('Service.account.noCategory')}
                  </Typography.Text>
                </Space>
              );
            },
          }),
          col.enabled({
            action: 'as.m.user.enableMuser',
            input: (r, enabled) => ({ musercode: r.musercode, enabled }),
            name: (r) => r.insname,
            confirm: 'off',
            offQuestion: (r) => t('Service.account.disableConfirm', { name: r.insname }),
            disabled: (r) => r.musercode === me,
            testId: (r) => `account-enabled-${r.username}`,
          }),
          col.actions(
            (r) => [
              { key: 'edit', action: 'as.m.user.updateMUser', onClick: () => open('edit', r), testId: `account-edit-${r.username}` },
              {
                key: 'client',
                label: t('Service.account.client'),
                action: 'as.m.user.getMUserClient',
                hidden: r.musertype === '005',
                onClick: () => open('client', r),
                testId: `account-client-${r.username}`,
              },
              {
                key: 'loginAs',
                label: t('Service.account.loginAs'),
                action: 'as.m.user.loginAs',
                hidden: r.musercode === me || r.enabled !== 1,
                onClick: () => void loginAs(r),
                testId: `account-loginas-${r.username}`,
              },
              {
                key: 'apps',
                label: t('Service.account.apps'),
                action: 'as.m.app.muser.insertMUserApp',
                more: true,
                onClick: () => open('apps', r),
              },
              {
                key: 'permissions',
                label: t('Service.account.permissions'),
                action: 'as.m.permissions.updateUserPermissions',
                more: true,
                onClick: () => open('permissions', r),
              },
              {
                key: 'move',
                label: t('Service.account.move'),
                action: 'as.m.user.updateMUserCategory',
                more: true,
                onClick: () => open('move', r),
              },
              {
                key: 'resetSecondFactor',
                label: t('Service.account.resetSecondFactor'),
                action: 'as.m.user.resetSecondFactor',
                more: true,
                hidden: r.musercode === me,
                onClick: () =>
                  void list.confirm({
                    action: 'as.m.user.resetSecondFactor',
                    input: { musercode: r.musercode },
                    content: t('Service.account.resetSecondFactorConfirm', { name: r.insname }),
                    success: t('Service.account.resetSecondFactorDone'),
                    danger: true,
                  }),
              },
              { ...col.remove('as.m.user.deleteMUser', { musercode: r.musercode }, r.insname, { hidden: r.musercode === me }), more: true },
            ],
            { width: 220, moreTestId: (r) => `account-more-${r.username}` },
          ),
        ]}
      />
      <AccountDialog
        open={dialog.kind === 'edit'}
        kind={kind}
        account={at('edit')}
        onClose={close}
        invalidates={[list.key, 'as.m.user.getMUserCategoryTree']}
      />
      <ClientDialog account={at('client')} onClose={close} />
      <AppsDialog account={at('apps')} onClose={close} />
      <PermissionsDialog account={at('permissions')} onClose={close} />
      <MoveDialog account={at('move')} kind={kind} onClose={close} invalidates={[list.key]} />
    </WithTreeFilter>
  );
}

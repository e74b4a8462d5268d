import { useState } from 'react';
import { Space, Tag, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { KeyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { DeptTreeNode, UserRow } from '@xinli/contract';
import { useAction } from '../../components/query';
import { useSession } from '../../auth';
import { f, ListView, TreeFilter, useListPage, useTreeParam, WithTreeFilter } from '../../components/list';
import UserDialog from './UserDialog';
import ResetPwdDialog from '../../features/system/ResetPwdDialog';
import SecondFactorTag, { secondFactorFilter } from '../../features/system/SecondFactorTag';

const toTreeData = (nodes: DeptTreeNode[]): DataNode[] =>
  nodes.map((n) => ({ key: n.deptid, title: n.deptname, children: n.children.length ? toTreeData(n.children) : undefined }));

/** The institution of a department in the tree. */
function institutionOf(nodes: DeptTreeNode[], deptid: string): string | undefined {
  for (const n of nodes) {
    if (n.deptid === deptid) return n.musercode;
    const below = institutionOf(n.children, deptid);
    if (below) return below;
  }
  return undefined;
}

/** The department tree on the left of the user page: choosing one filters the list to its subtree. */
const useDeptTree = () => useAction('as.m.system.user.selectDeptTreeList', {});

function DeptFilter({ value, onChange }: { value: string | undefined; onChange: (deptid: string | undefined) => void }) {
  const { t } = useTranslation();
  const q = useDeptTree();
  return (
    <TreeFilter
      title={t('organization.user.dept')}
      searchPlaceholder={t('organization.user.deptSearch')}
      query={q}
      label={deptLabel}
      toTreeData={toTreeData}
      value={value}
      // Choosing the chosen department again goes back to all departments.
      onSelect={onChange}
      testId="user-dept-tree"
    />
  );
}

const deptLabel = (n: DeptTreeNode) => n.deptname;

/** User management (SPEC §2 /organization/user, code 000313): the staff users of the institution. */
export default function User() {
  const { t } = useTranslation();
  const { session } = useSession();
  const me = session?.user.userid ?? null;
  const [deptid, setDeptid] = useTreeParam('deptid');
  // The chosen department's institution: a new user is added there.
  const deptTree = useDeptTree();
  const deptInstitution = deptid ? institutionOf(deptTree.data ?? [], deptid) : undefined;
  const list = useListPage('as.m.system.user.selectUserList', {
    resource: 'organization.user',
    filters: [
      f.text('sysusername', { maxLength: 30, width: 170 }),
      f.text('realname', { maxLength: 30, width: 170 }),
      f.text('phonenumber', { maxLength: 20, width: 170 }),
      f.enabled(),
      secondFactorFilter(t),
      f.institution(),
    ],
    input: deptid ? { deptid } : {},
  });
  const [dialog, setDialog] = useState<{ open: boolean; user: UserRow | null }>({ open: false, user: null });
  const [resetting, setResetting] = useState<UserRow | null>(null);
  const manyInstitutions = !!list.rows?.some((r) => r.musercode !== session?.user.musercode);
  const { col } = list;

  return (
    <WithTreeFilter tree={<DeptFilter value={deptid} onChange={setDeptid} />}>
      <ListView<UserRow>
        list={list}
        add={{ action: 'as.m.system.user.insertUser', onClick: () => setDialog({ open: true, user: null }), testId: 'user-add' }}
        rowKey="userid"
        columns={[
          col.text('sysusername', {
            width: 110,
            // The second-factor mark under the name: beside it, it would wrap in the narrow column.
            render: (name: string, u) => (
              <Space orientation="vertical" size={2}>
                <Space size={4}>
                  {name}
                  {u.userid === me && <Tag color="blue">{t('organization.user.self')}</Tag>}
                </Space>
                <SecondFactorTag on={u.secondfactor} testId={`user-second-factor-${u.sysusername}`} />
              </Space>
            ),
          }),
          col.text('realname', { width: 80 }),
          // A caller who manages several institutions sees each user's institution above the
          // department, in one column: two columns would not fit beside the tree at 1440 px.
          col.text('deptname', {
            title: manyInstitutions ? `${col.title('institution')} / ${col.title('dept')}` : col.title('dept'),
            width: manyInstitutions ? 150 : 120,
            render: (name: string, u) => {
              const dept = name || <Typography.Text type="secondary">-</Typography.Text>;
              if (!manyInstitutions) return dept;
              return (
                <>
                  <div>{u.insname}</div>
                  <Typography.Text type="secondary">{dept}</Typography.Text>
                </>
              );
            },
          }),
          col.phone('phonenumber'),
          col.text('roles', {
            width: 110,
            render: (roles: UserRow['roles']) => (
              <Space size={[0, 4]} wrap>
                {roles.map((r) => (
                  <Tag key={r.roleid}>{r.rolename}</Tag>
                ))}
              </Space>
            ),
          }),
          col.enabled({
            action: 'as.m.system.user.enableUser',
            input: (u, enabled) => ({ userid: u.userid, enabled }),
            name: (u) => u.sysusername,
            confirm: 'off',
            offQuestion: (u) => t('organization.user.disableConfirm', { name: u.sysusername }),
            disabled: (u) => u.userid === me,
            testId: (u) => `user-enabled-${u.sysusername}`,
          }),
          col.time('createdat'),
          col.actions(
            (u) => [
              { key: 'edit', action: 'as.m.system.user.updateUser', onClick: () => setDialog({ open: true, user: u }) },
              col.remove('as.m.system.user.deleteUserById', { userid: u.userid }, u.sysusername, { hidden: u.userid === me }),
              // RuoYi's "more" menu keeps the row short: the rarer actions live here.
              {
                key: 'resetPwd',
                label: t('organization.user.resetPwd'),
                icon: <KeyOutlined />,
                action: 'as.m.system.user.resetPwd',
                more: true,
                onClick: () => setResetting(u),
              },
              {
                key: 'resetSecondFactor',
                label: t('organization.user.resetSecondFactor'),
                action: 'as.m.system.user.resetSecondFactor',
                more: true,
                hidden: u.userid === me,
                onClick: () =>
                  void list.confirm({
                    action: 'as.m.system.user.resetSecondFactor',
                    input: { userid: u.userid },
                    content: t('organization.user.resetSecondFactorConfirm', { name: u.sysusername }),
                    success: t('organization.user.resetSecondFactorDone'),
                    danger: true,
                  }),
              },
            ],
            { width: 160, moreTestId: (u) => `user-more-${u.sysusername}` },
          ),
        ]}
      />
      <UserDialog
        open={dialog.open}
        user={dialog.user}
        deptid={deptid}
        musercode={deptInstitution ?? (list.filters.musercode as string | undefined)}
        invalidates={[list.key]}
        onClose={() => setDialog({ open: false, user: null })}
      />
      <ResetPwdDialog user={resetting} onClose={() => setResetting(null)} />
    </WithTreeFilter>
  );
}

import { useMemo, useState } from 'react';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { DeptRow } from '@xinli/contract';
import { useSession } from '../../auth';
import { ExpandAllButton, f, ListView, useListPage, useTreeExpansion } from '../../components/list';
import { nest, type Nested } from '../../lib/tree';
import DeptDialog, { type DeptDialogProps } from './DeptDialog';

type Row = Nested<DeptRow>;
const idOf = (r: DeptRow) => r.deptid;

/** Department management (SPEC §2 /organization/dept, code 000312): the department tree of the institution. */
export default function Dept() {
  const { t } = useTranslation();
  const { session } = useSession();
  // The user page's department tree follows every change here.
  const list = useListPage('as.m.system.dept.selectDeptList', {
    resource: 'organization.dept',
    filters: [f.text('deptname', { maxLength: 30 }), f.enabled(), f.institution()],
    invalidates: ['as.m.system.user.selectDeptTreeList'],
  });
  const rows = useMemo(() => (list.rows ? nest(list.rows, idOf, (r) => r.parentid) : undefined), [list.rows]);
  const tree = useTreeExpansion<Row>(rows, idOf);
  const [dialog, setDialog] = useState<Omit<DeptDialogProps, 'onClose'>>({ open: false, dept: null });
  const manyInstitutions = !!list.rows?.some((d) => d.musercode !== session?.user.musercode);
  const col = list.colFor<Row>();

  return (
    <ListView<Row>
      list={list}
      add={{ action: 'as.m.system.dept.insertDept', onClick: () => setDialog({ open: true, dept: null }), testId: 'dept-add' }}
      actions={<ExpandAllButton {...tree.button} />}
      rowKey="deptid"
      rows={rows}
      expandable={tree.expandable}
      columns={[
        col.text('deptname'),
        ...(manyInstitutions ? [col.text('insname', { title: col.title('institution') })] : []),
        col.text('leader'),
        col.text('phonenumber'),
        col.text('usercount', { align: 'center' }),
        col.text('sort', { align: 'center' }),
        col.enabled({
          action: 'as.m.system.dept.updateDept',
          input: (d, enabled) => ({ deptid: d.deptid, enabled }),
          name: (d) => d.deptname,
          readOnly: () => true,
        }),
        col.time('createdat'),
        col.actions(
          (d) => [
            { key: 'edit', action: 'as.m.system.dept.updateDept', onClick: () => setDialog({ open: true, dept: d }) },
            {
              key: 'addChild',
              label: t('organization.dept.addChild'),
              icon: <PlusOutlined />,
              action: 'as.m.system.dept.insertDept',
              disabled: d.enabled !== 1,
              onClick: () => setDialog({ open: true, dept: null, parentid: d.deptid, musercode: d.musercode }),
            },
            col.remove('as.m.system.dept.deleteDeptById', { deptid: d.deptid }, d.deptname, { testId: `dept-delete-${d.deptid}` }),
          ],
          { width: 230 },
        ),
      ]}
    >
      <DeptDialog
        {...dialog}
        musercode={dialog.musercode ?? (list.filters.musercode as string | undefined)}
        invalidates={[list.key, 'as.m.system.user.selectDeptTreeList']}
        onClose={() => setDialog({ open: false, dept: null })}
      />
    </ListView>
  );
}

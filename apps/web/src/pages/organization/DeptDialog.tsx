import { useMemo } from 'react';
import { Form, Input, InputNumber, Radio, TreeSelect } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { systemActions, type ActionName, type DeptRow } from '@xinli/contract';
import { call } from '../../api';
import { Field, FormDialog } from '../../components/form';
import { InstitutionSelect, useInstitutions } from '../../components/pickers';
import { useEnabledOptions } from '../../lib/options';
import { nest } from '../../lib/tree';

interface DeptForm {
  parentid: string | null;
  deptname: string;
  sort: number;
  leader: string;
  phonenumber: string;
  email: string;
  enabled: 0 | 1;
  musercode?: string;
}

export interface DeptDialogProps {
  open: boolean;
  /** The department to edit; null to add one. */
  dept: DeptRow | null;
  /** The parent a new department starts under ("add sub-department"). */
  parentid?: string | null;
  /** The institution a new department starts in; the caller's own otherwise. */
  musercode?: string;
  onClose: () => void;
  invalidates?: ActionName[];
}

/** Add or edit a department; an edited department's parent can be any but itself and its descendants. */
export default function DeptDialog({ open, dept, parentid, musercode, onClose, invalidates }: DeptDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<DeptForm>();
  const enabledOptions = useEnabledOptions();
  const institutions = useInstitutions();
  // A new department's parent is one of its institution's departments.
  const owner: string | undefined = Form.useWatch('musercode', form) ?? dept?.musercode ?? musercode ?? institutions.own;

  const parents = useQuery({
    queryKey: dept ? ['as.m.system.dept.selectDeptListExcludeChild', { deptid: dept.deptid }] : ['as.m.system.dept.selectDeptList', {}],
    queryFn: () =>
      dept ? call('as.m.system.dept.selectDeptListExcludeChild', { deptid: dept.deptid }) : call('as.m.system.dept.selectDeptList', {}),
    enabled: open,
    staleTime: 0,
  });
  const treeData = useMemo(
    () =>
      nest(
        (parents.data ?? [])
          .filter((d) => !owner || d.musercode === owner)
          .map((d) => ({ value: d.deptid, title: d.deptname, disabled: d.enabled !== 1, deptid: d.deptid, parentid: d.parentid })),
        (d) => d.deptid,
        (d) => d.parentid,
      ),
    [parents.data, owner],
  );

  async function submit(v: DeptForm) {
    const fields = {
      parentid: v.parentid ?? null,
      deptname: v.deptname,
      sort: v.sort ?? 0,
      leader: v.leader ?? '',
      phonenumber: v.phonenumber ?? '',
      email: v.email ?? '',
      enabled: v.enabled,
    };
    if (dept) await call('as.m.system.dept.updateDept', { deptid: dept.deptid, ...fields });
    else await call('as.m.system.dept.insertDept', { ...fields, ...(v.musercode ? { musercode: v.musercode } : {}) });
  }

  return (
    <FormDialog<DeptForm>
      open={open}
      editing={!!dept}
      action={systemActions['as.m.system.dept.insertDept']}
      resource="organization.dept"
      form={form}
      labelWidth={100}
      values={
        dept
          ? {
              parentid: dept.parentid,
              deptname: dept.deptname,
              sort: dept.sort,
              leader: dept.leader,
              phonenumber: dept.phonenumber,
              email: dept.email,
              enabled: dept.enabled as 0 | 1,
            }
          : {
              parentid: parentid ?? null,
              sort: 0,
              enabled: 1,
              leader: '',
              phonenumber: '',
              email: '',
              musercode: musercode ?? institutions.own,
            }
      }
      onSubmit={submit}
      onClose={onClose}
      invalidates={invalidates}
      formProps={{ 'data-testid': 'dept-form' } as object}
    >
      {!dept && institutions.many && (
        <Field
          name="musercode"
          label={t('common.institution')}
          required
          rules={[{ required: true, message: t('common.choose', { field: t('common.institution') }) }]}
        >
          <InstitutionSelect onChange={() => form.setFieldValue('parentid', null)} />
        </Field>
      )}
      <Field name="parentid" label={t('organization.dept.parent')}>
        <TreeSelect
          allowClear
          treeDefaultExpandAll
          loading={parents.isLoading}
          treeData={treeData}
          placeholder={t('organization.dept.parentNone')}
          showSearch={{ treeNodeFilterProp: 'title' }}
        />
      </Field>
      <Field name="deptname">
        <Input data-testid="dept-name" />
      </Field>
      <Field name="sort">
        <InputNumber min={0} max={9999} precision={0} style={{ width: 160 }} />
      </Field>
      <Field name="leader">
        <Input />
      </Field>
      <Field name="phonenumber">
        <Input />
      </Field>
      <Field name="email">
        <Input />
      </Field>
      <Field name="enabled" label={t('common.status')}>
        <Radio.Group options={enabledOptions} />
      </Field>
    </FormDialog>
  );
}

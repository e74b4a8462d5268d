import { useMemo } from 'react';
import { Form, Input, InputNumber, Radio, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { systemActions, type ActionInput, type ActionName, type DeptRow } from '@xinli/contract';
import { call } from '../../api';
import { Field, FormDialog } from '../../components/form';
import { useAction } from '../../components/query';
import { InstitutionSelect, useInstitutions } from '../../components/pickers';
import { useEnabledOptions } from '../../lib/options';
import { nest } from '../../lib/tree';

type DeptForm = ActionInput<'as.m.system.dept.insertDept'>;

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

  // An edited department's parent is any but itself and its descendants.
  const all = useAction('as.m.system.dept.selectDeptList', {}, { enabled: open && !dept, staleTime: 0 });
  const others = useAction('as.m.system.dept.selectDeptListExcludeChild', { deptid: dept?.deptid ?? '' }, { enabled: open && !!dept, staleTime: 0 });
  const parents = dept ? others : all;
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

  return (
    <FormDialog<DeptForm>
      open={open}
      action={systemActions['as.m.system.dept.insertDept']}
      resource="organization.dept"
      form={form}
      labelWidth={100}
      record={dept}
      defaults={{ parentid, musercode: musercode ?? institutions.own }}
      onSubmit={(v) => (dept ? call('as.m.system.dept.updateDept', { deptid: dept.deptid, ...v }) : call('as.m.system.dept.insertDept', v))}
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

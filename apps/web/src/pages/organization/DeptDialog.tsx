import { useEffect, useMemo, useState } from 'react';
import { App as AntApp, Form, Input, InputNumber, Modal, Radio, TreeSelect } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DeptRow } from '@xinli/contract';
import { call } from '../../api';
import { InstitutionSelect, nest, useEnabledOptions, useInstitutions } from '../authority/shared';

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
  onSaved: () => void;
}

export const PHONE = /^\+?[0-9][0-9 -]{4,18}[0-9]$/;

/** Add or edit a department; an edited department's parent can be any but itself and its descendants. */
export default function DeptDialog({ open, dept, parentid, musercode, onClose, onSaved }: DeptDialogProps) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<DeptForm>();
  const [saving, setSaving] = useState(false);
  const enabledOptions = useEnabledOptions();
  const institutions = useInstitutions();
  // A new department's parent is one of its institution's departments.
  const owner: string | undefined = Form.useWatch('musercode', form) ?? dept?.musercode ?? musercode ?? institutions.own;

  const parents = useQuery({
    queryKey: dept ? ['as.m.system.dept.selectDeptListExcludeChild', { deptid: dept.deptid }] : ['as.m.system.dept.selectDeptList', {}],
    queryFn: () => (dept ? call('as.m.system.dept.selectDeptListExcludeChild', { deptid: dept.deptid }) : call('as.m.system.dept.selectDeptList', {})),
    enabled: open,
    staleTime: 0,
  });
  const treeData = useMemo(
    () =>
      nest(
        (parents.data ?? []).filter((d) => !owner || d.musercode === owner).map((d) => ({ value: d.deptid, title: d.deptname, disabled: d.enabled !== 1, deptid: d.deptid, parentid: d.parentid })),
        (d) => d.deptid,
        (d) => d.parentid,
      ),
    [parents.data, owner],
  );

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      dept
        ? { parentid: dept.parentid, deptname: dept.deptname, sort: dept.sort, leader: dept.leader, phonenumber: dept.phonenumber, email: dept.email, enabled: dept.enabled as 0 | 1 }
        : { parentid: parentid ?? null, sort: 0, enabled: 1, leader: '', phonenumber: '', email: '', musercode: musercode ?? institutions.own },
    );
    // The institution list arriving later must not reset what the user typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, dept, parentid, musercode, form]);

  async function submit() {
    const values = await form.validateFields();
    setSaving(true);
    try {
      const fields = {
        parentid: values.parentid ?? null,
        deptname: values.deptname,
        sort: values.sort ?? 0,
        leader: values.leader ?? '',
        phonenumber: values.phonenumber ?? '',
        email: values.email ?? '',
        enabled: values.enabled,
      };
      if (dept) await call('as.m.system.dept.updateDept', { deptid: dept.deptid, ...fields });
      else await call('as.m.system.dept.insertDept', { ...fields, ...(values.musercode ? { musercode: values.musercode } : {}) });
      message.success(t('system.common.saved'));
      onSaved();
    } catch {
      // The request client has shown the server's message; the dialog stays open.
    } finally {
      setSaving(false);
    }
  }

  const enter = (field: string) => t('system.common.enter', { field: t(field) });
  return (
    <Modal
      open={open}
      title={t(dept ? 'system.dept.editTitle' : 'system.dept.addTitle')}
      width={600}
      okText={t('system.common.save')}
      cancelText={t('system.common.cancel')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <Form<DeptForm> form={form} labelCol={{ flex: '100px' }} wrapperCol={{ flex: 1 }} colon={false} style={{ marginTop: 16 }} data-testid="dept-form">
        {!dept && institutions.many && (
          <Form.Item name="musercode" label={t('system.common.institution')} rules={[{ required: true }]}>
            <InstitutionSelect onChange={() => form.setFieldValue('parentid', null)} />
          </Form.Item>
        )}
        <Form.Item name="parentid" label={t('system.dept.parent')}>
          <TreeSelect
            allowClear
            treeDefaultExpandAll
            loading={parents.isLoading}
            treeData={treeData}
            placeholder={t('system.dept.parentNone')}
            showSearch={{ treeNodeFilterProp: 'title' }}
          />
        </Form.Item>
        <Form.Item name="deptname" label={t('system.dept.deptname')} rules={[{ required: true, whitespace: true, message: enter('system.dept.deptname') }, { max: 30 }]}>
          <Input maxLength={30} placeholder={enter('system.dept.deptname')} data-testid="dept-name" />
        </Form.Item>
        <Form.Item name="sort" label={t('system.common.sort')}>
          <InputNumber min={0} max={9999} precision={0} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="leader" label={t('system.dept.leader')} rules={[{ max: 20 }]}>
          <Input maxLength={20} placeholder={enter('system.dept.leader')} />
        </Form.Item>
        <Form.Item name="phonenumber" label={t('system.dept.phonenumber')} rules={[{ pattern: PHONE, message: t('system.dept.phoneFormat') }]}>
          <Input maxLength={20} placeholder={enter('system.dept.phonenumber')} />
        </Form.Item>
        <Form.Item name="email" label={t('system.dept.email')} rules={[{ type: 'email', message: t('system.dept.emailFormat') }, { max: 64 }]}>
          <Input maxLength={64} placeholder={enter('system.dept.email')} />
        </Form.Item>
        <Form.Item name="enabled" label={t('system.common.status')}>
          <Radio.Group options={enabledOptions} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

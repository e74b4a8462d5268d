import { useEffect } from 'react';
import { Button, Checkbox, Form, Input, InputNumber, Modal, Space, Switch } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ActionInput, NormRow } from '@xinli/contract';
import { call } from '../../api';
import { useT } from '../../i18n/useT';
import { useLocalText } from '../../lib/options';

type NormInput = ActionInput<'as.m.assess.norm.insertNorm'>;
interface NormForm extends Omit<NormInput, 'isdefault' | 'change'> {
  isdefault: boolean;
  haschange: boolean;
  change: NonNullable<NormInput['change']>;
}

const EMPTY: Partial<NormForm> = {
  name: { zh: '', en: '' },
  population: { zh: '', en: '' },
  scales: [{ code: 'TOTAL', mean: 0, sd: 1 }],
  isdefault: true,
  haschange: false,
  change: { code: 'TOTAL', reliability: 0.8, reliabilitysource: '', cutoff: null, higherworse: true },
};

const formOf = (n: NormRow): NormForm => ({
  formcode: n.formcode,
  name: n.name,
  population: n.population,
  samplesize: n.samplesize,
  year: n.year,
  source: n.source,
  scales: n.scales.map(({ code, mean, sd }) => ({ code, mean, sd })),
  isdefault: n.isdefault === 1,
  haschange: !!n.change,
  change: n.change ?? EMPTY.change!,
});

/** Add or change a norm (the super account): the sample, the source, the indicators' means and SDs, and the reliable-change rule. */
export default function NormDialog({ open, item, onClose }: { open: boolean; item: NormRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const k = useT('evaluating.norms');
  const text = useLocalText();
  const [form] = Form.useForm<NormForm>();
  const queryClient = useQueryClient();
  const haschange = Form.useWatch('haschange', form);
  useEffect(() => {
    if (open) form.setFieldsValue(item ? formOf(item) : (EMPTY as NormForm));
    else form.resetFields();
  }, [open, item, form]);

  const save = async () => {
    const { haschange: withChange, isdefault, change, ...v } = await form.validateFields();
    const body: NormInput = { ...v, isdefault: isdefault ? 1 : 0, change: withChange ? { ...change, cutoff: change.cutoff ?? null } : null };
    if (item) await call('as.m.assess.norm.updateNorm', { normid: item.normid, ...body });
    else await call('as.m.assess.norm.insertNorm', body);
    await queryClient.invalidateQueries({ queryKey: ['as.m.assess.norm.getNormPage'] });
    onClose();
  };
  const required = [{ required: true }];
  return (
    <Modal
      open={open}
      title={item ? k('editTitle', { name: text(item.name) }) : k('addTitle')}
      width={720}
      onOk={() => void save().catch(() => undefined)}
      onCancel={onClose}
      okText={t('common.save')}
      destroyOnHidden
      data-testid="norm-dialog"
    >
      <Form form={form} layout="vertical" requiredMark>
        <Space wrap size={12} style={{ width: '100%' }}>
          <Form.Item name="formcode" label={k('formcode')} rules={required}>
            <Input disabled={!!item} maxLength={40} data-testid="norm-formcode" style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="samplesize" label={k('samplesize')} rules={required}>
            <InputNumber min={1} precision={0} style={{ width: 130 }} />
          </Form.Item>
          <Form.Item name="year" label={k('year')} rules={required}>
            <InputNumber min={1900} max={2100} precision={0} style={{ width: 110 }} />
          </Form.Item>
          <Form.Item name="isdefault" label={k('isdefault')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Space>
        <Space wrap size={12} style={{ width: '100%' }}>
          <Form.Item name={['name', 'zh']} label={k('namezh')} rules={required}>
            <Input maxLength={100} style={{ width: 320 }} />
          </Form.Item>
          <Form.Item name={['name', 'en']} label={k('nameen')}>
            <Input maxLength={100} style={{ width: 320 }} />
          </Form.Item>
          <Form.Item name={['population', 'zh']} label={k('populationzh')} rules={required}>
            <Input maxLength={100} style={{ width: 320 }} />
          </Form.Item>
          <Form.Item name={['population', 'en']} label={k('populationen')}>
            <Input maxLength={100} style={{ width: 320 }} />
          </Form.Item>
        </Space>
        <Form.Item name="source" label={k('source')} rules={required}>
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
        <Form.Item label={k('scales')} required>
          <Form.List name="scales">
            {(fields, { add, remove }) => (
              <Space orientation="vertical" size={4} style={{ width: '100%' }}>
                {fields.map((field) => (
                  <Space key={field.key} size={8} align="baseline" wrap>
                    <Form.Item name={[field.name, 'code']} rules={required} noStyle>
                      <Input placeholder={k('code')} maxLength={20} style={{ width: 140 }} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'mean']} rules={required} noStyle>
                      <InputNumber placeholder={k('mean')} style={{ width: 120 }} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'sd']} rules={required} noStyle>
                      <InputNumber placeholder={k('sd')} min={0.0001} style={{ width: 120 }} />
                    </Form.Item>
                    <Button type="text" icon={<DeleteOutlined />} onClick={() => remove(field.name)} aria-label={t('common.delete')} disabled={fields.length < 2} />
                  </Space>
                ))}
                <Button icon={<PlusOutlined />} onClick={() => add({ code: '', mean: 0, sd: 1 })}>
                  {k('addScale')}
                </Button>
              </Space>
            )}
          </Form.List>
        </Form.Item>
        <Form.Item name="haschange" valuePropName="checked">
          <Checkbox>{k('hasChange')}</Checkbox>
        </Form.Item>
        {haschange && (
          <>
            <Space wrap size={12}>
              <Form.Item name={['change', 'code']} label={k('changeCode')} rules={required}>
                <Input maxLength={20} style={{ width: 160 }} />
              </Form.Item>
              <Form.Item name={['change', 'reliability']} label={k('reliability')} rules={required}>
                <InputNumber min={0.01} max={0.99} step={0.01} style={{ width: 110 }} />
              </Form.Item>
              <Form.Item name={['change', 'cutoff']} label={k('cutoff')}>
                <InputNumber style={{ width: 110 }} />
              </Form.Item>
              <Form.Item name={['change', 'higherworse']} label={k('higherworse')} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Space>
            <Form.Item name={['change', 'reliabilitysource']} label={k('reliabilitysource')} rules={required}>
              <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}

import { Col, Form, Input, Row, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormType } from '@xinli/contract';
import { useApps } from '../../../components/pickers';
import { useEnumOptions } from '../../../lib/options';
import { useT } from '../../../i18n/useT';

/** Code, names, type, population apps, instructions, licence and source of a scale. */
export default function BasicsSection({ isNew }: { isNew: boolean }) {
  const { t } = useTranslation();
  const formTypes = useEnumOptions(FormType);
  const apps = useApps();
  const k = useT('evaluating.editor.basics');
  const required = useT('evaluating.editor.required');
  return (
    <div className="scale-editor-section">
      <Row gutter={16}>
        {!isNew && (
          <Col xs={24} md={8}>
            <Form.Item name="formcode" label={k('formcode')}>
              <Input disabled data-testid="scale-formcode" />
            </Form.Item>
          </Col>
        )}
        <Col xs={24} md={8}>
          <Form.Item
            name={['formname', 'zh']}
            label={t('common.bracketed', { text: k('formname'), detail: t('common.zh') })}
            rules={[{ required: true, whitespace: true, message: required('formname') }]}
          >
            <Input maxLength={100} data-testid="scale-formname" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name={['formname', 'en']} label={t('common.bracketed', { text: k('formname'), detail: t('common.en') })}>
            <Input maxLength={100} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="formtype" label={k('formtype')} rules={[{ required: true, message: required('formtype') }]}>
            <Select options={formTypes} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="appids" label={k('appids')}>
            <Select mode="multiple" allowClear options={apps.options} loading={apps.loading} />
          </Form.Item>
        </Col>
        {!isNew && (
          <Col xs={24} md={4}>
            <Form.Item name="version" label={k('version')}>
              <Input disabled />
            </Form.Item>
          </Col>
        )}
        <Col xs={24} md={12}>
          <Form.Item name={['instructions', 'zh']} label={t('common.bracketed', { text: k('instructions'), detail: t('common.zh') })}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={4000} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name={['instructions', 'en']} label={t('common.bracketed', { text: k('instructions'), detail: t('common.en') })}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={4000} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name={['licence', 'zh']} label={t('common.bracketed', { text: k('licence'), detail: t('common.zh') })}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={4000} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name={['licence', 'en']} label={t('common.bracketed', { text: k('licence'), detail: t('common.en') })}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={4000} />
          </Form.Item>
        </Col>
        <Col xs={24} md={16}>
          <Form.Item name="source" label={k('source')}>
            <Input placeholder={k('sourcePlaceholder')} maxLength={2000} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="fulltext" label={k('fulltext')} valuePropName="checked" extra={k('fulltextHelp')}>
            <Switch />
          </Form.Item>
        </Col>
      </Row>
    </div>
  );
}

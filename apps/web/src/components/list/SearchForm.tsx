import type { ReactNode } from 'react';
import { Button, Form, type FormInstance } from 'antd';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

export interface SearchFormProps<V> {
  /** Form.Item fields; their `name`s become the filter keys. */
  children: ReactNode;
  onSearch: (values: V) => void;
  onReset?: () => void;
  form?: FormInstance<V>;
  initialValues?: Partial<V>;
  /** Hidden by the toolbar's show/hide search toggle. */
  visible?: boolean;
}

/** The RuoYi search bar: inline fields, then Search and Reset. Empty strings are dropped. */
export default function SearchForm<V extends Record<string, unknown>>({
  children,
  onSearch,
  onReset,
  form,
  initialValues,
  visible = true,
}: SearchFormProps<V>) {
  const { t } = useTranslation();
  const [own] = Form.useForm<V>();
  const instance = form ?? own;
  // Hidden, not unmounted: what was typed survives the toggle.
  return (
    <Form<V>
      form={instance}
      layout="inline"
      hidden={!visible}
      className="list-search"
      initialValues={initialValues}
      onFinish={(values) => onSearch(dropEmpty(values))}
      data-testid="list-search"
    >
      {children}
      <Form.Item>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          {t('common.search')}
        </Button>
        <Button
          style={{ marginLeft: 8 }}
          icon={<ReloadOutlined />}
          onClick={() => {
            instance.resetFields();
            onReset?.();
          }}
        >
          {t('common.reset')}
        </Button>
      </Form.Item>
    </Form>
  );
}

/** Blank text inputs mean "no filter": drop them so strict action inputs stay small. */
export function dropEmpty<V extends Record<string, unknown>>(values: V): V {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values ?? {})) {
    if (v === undefined || v === null) continue;
    if (typeof v === 'string' && v.trim() === '') continue;
    out[k] = typeof v === 'string' ? v.trim() : v;
  }
  return out as V;
}

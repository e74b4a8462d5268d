/**
 * The comments database (SPEC §2 /evaluating/scaleComments, code 00004): the interpretation and
 * advice texts of every score band of the readable scales, editable for the institution's own.
 */
import { useState } from 'react';
import { App, Button, Col, Form, Input, Modal, Row, Select, Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { AlertOutlined, EditOutlined, LockOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LocalText } from '@xinli/contract';
import { call } from '../../api';
import { DataTable, ListPage, ListPagination, ListToolbar, SearchForm, useListQuery, useListState } from '../../components/list';
import { LEVELS, LevelTag, useLevelLabel, useLocalText } from './shared';

type Filters = { formname?: string; level?: number; builtin?: 0 | 1 };
const LIST = 'as.m.assess.comment.getCommentPageList';

interface CommentRow {
  optionid: string;
  formcode: string;
  formname: string;
  builtin: boolean;
  version: number;
  quotacode: string;
  quotaname: string;
  min: number;
  max: number;
  level: number;
  label: string;
  interpretation: LocalText;
  advice: LocalText;
  raisesWarning: boolean;
}

export default function ScaleComments() {
  const { t } = useTranslation();
  const list = useListState<Filters>();
  const [searchOpen, setSearchOpen] = useState(true);
  const q = useListQuery(LIST, list.input);
  const text = useLocalText();
  const levelLabel = useLevelLabel();
  const [editing, setEditing] = useState<CommentRow | null>(null);
  const k = (key: string, o?: Record<string, unknown>) => t(`evaluating.comments.${key}`, o);
  const c = (key: string) => t(`evaluating.common.${key}`);

  const longCell = (value: LocalText) => {
    const s = text(value);
    return s ? (
      <Typography.Paragraph ellipsis={{ rows: 2, tooltip: s }} style={{ marginBottom: 0, maxWidth: 320 }}>
        {s}
      </Typography.Paragraph>
    ) : (
      <Typography.Text type="secondary">—</Typography.Text>
    );
  };

  const columns: ColumnsType<CommentRow> = [
    {
      title: k('formname'),
      dataIndex: 'formname',
      key: 'formname',
      width: 200,
      render: (name: string, row) => (
        <Space size={4}>
          <span>{name}</span>
          {row.builtin && (
            <Tooltip title={k('builtinHint')}>
              <LockOutlined style={{ color: 'rgba(0,0,0,.45)' }} />
            </Tooltip>
          )}
        </Space>
      ),
    },
    { title: k('indicator'), dataIndex: 'quotaname', key: 'quotaname', width: 140 },
    { title: k('range'), key: 'range', width: 100, align: 'center', render: (_, r) => `${r.min} ~ ${r.max}` },
    { title: k('level'), dataIndex: 'level', key: 'level', width: 130, render: (_, r) => <LevelTag level={r.level} label={r.label} /> },
    { title: k('interpretation'), dataIndex: 'interpretation', key: 'interpretation', render: longCell },
    { title: k('advice'), dataIndex: 'advice', key: 'advice', render: longCell },
    {
      title: k('raisesWarning'),
      dataIndex: 'raisesWarning',
      key: 'raisesWarning',
      width: 70,
      align: 'center',
      render: (v: boolean) => (v ? <AlertOutlined style={{ color: '#e8590c' }} aria-label={k('raisesWarning')} /> : null),
    },
    {
      title: c('actions'),
      key: 'actions',
      width: 90,
      fixed: 'right',
      render: (_, row) =>
        row.builtin ? (
          <Tag icon={<LockOutlined />}>{c('readOnly')}</Tag>
        ) : (
          <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(row)}>
            {c('edit')}
          </Button>
        ),
    },
  ];

  const search = (
    <SearchForm<Filters> visible={searchOpen} onSearch={list.search} onReset={list.reset}>
      <Form.Item name="formname" label={k('formname')}>
        <Input allowClear style={{ width: 180 }} />
      </Form.Item>
      <Form.Item name="level" label={k('level')}>
        <Select
          allowClear
          style={{ width: 150 }}
          placeholder={c('all')}
          options={LEVELS.map((l) => ({ value: l, label: `${l} · ${levelLabel(l)}` }))}
        />
      </Form.Item>
      <Form.Item name="builtin" label={t('evaluating.library.origin')}>
        <Select
          allowClear
          style={{ width: 110 }}
          placeholder={c('all')}
          options={[
            { value: 1, label: t('evaluating.library.builtin') },
            { value: 0, label: t('evaluating.library.custom') },
          ]}
        />
      </Form.Item>
    </SearchForm>
  );

  return (
    <ListPage
      search={search}
      toolbar={<ListToolbar searchVisible={searchOpen} onToggleSearch={() => setSearchOpen(!searchOpen)} onRefresh={() => q.refetch()} />}
      pagination={<ListPagination total={q.data?.total ?? 0} page={list.page} pageSize={list.pageSize} onChange={list.paginate} />}
    >
      <DataTable<CommentRow>
        rowKey="optionid"
        columns={columns}
        rows={q.data?.rows}
        loading={q.isFetching}
        error={q.error}
        onRetry={() => q.refetch()}
      />
      <CommentDialog row={editing} onClose={() => setEditing(null)} />
    </ListPage>
  );
}

function CommentDialog({ row, onClose }: { row: CommentRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ interpretation: LocalText; advice: LocalText }>();
  const [busy, setBusy] = useState(false);
  const k = (key: string) => t(`evaluating.comments.${key}`);
  const submit = async () => {
    const values = await form.validateFields();
    setBusy(true);
    try {
      await call('as.m.assess.comment.updateComment', {
        optionid: row!.optionid,
        interpretation: values.interpretation,
        advice: values.advice,
      });
      message.success(t('evaluating.common.saved'));
      await queryClient.invalidateQueries({ queryKey: [LIST] });
      onClose();
    } catch {
      // Shown by the request client.
    } finally {
      setBusy(false);
    }
  };
  const area = (name: (string | number)[], label: string) => (
    <Form.Item name={name} label={label}>
      <Input.TextArea autoSize={{ minRows: 4, maxRows: 10 }} maxLength={4000} showCount />
    </Form.Item>
  );
  return (
    <Modal
      open={!!row}
      width={860}
      title={row ? t('evaluating.comments.editTitle', { form: row.formname, indicator: row.quotaname, label: row.label }) : ''}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={busy}
      okText={t('evaluating.common.save')}
      cancelText={t('evaluating.common.cancel')}
      destroyOnHidden
      afterOpenChange={(open) => open && row && form.setFieldsValue({ interpretation: row.interpretation, advice: row.advice })}
    >
      {row && (
        <Space style={{ marginBottom: 12 }}>
          <LevelTag level={row.level} label={row.label} />
          <Typography.Text type="secondary">
            {k('range')}: {row.min} ~ {row.max}
          </Typography.Text>
        </Space>
      )}
      <Form form={form} layout="vertical" preserve={false}>
        <Row gutter={16}>
          <Col span={12}>{area(['interpretation', 'zh'], `${k('interpretation')}（${t('evaluating.common.zh')}）`)}</Col>
          <Col span={12}>{area(['interpretation', 'en'], `${k('interpretation')}（${t('evaluating.common.en')}）`)}</Col>
          <Col span={12}>{area(['advice', 'zh'], `${k('advice')}（${t('evaluating.common.zh')}）`)}</Col>
          <Col span={12}>{area(['advice', 'en'], `${k('advice')}（${t('evaluating.common.en')}）`)}</Col>
        </Row>
      </Form>
    </Modal>
  );
}

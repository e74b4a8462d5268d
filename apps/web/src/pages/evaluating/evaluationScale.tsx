/**
 * The scale library (SPEC §2 /evaluating/evaluationScale, code 00003): built-in scales
 * (read-only, with their licence note) and the institution's own; create, edit, copy, delete,
 * enable; JSON import/export and the Excel item template. The editor opens in a drawer.
 */
import { useState } from 'react';
import { App, Button, Dropdown, Form, Input, Modal, Select, Space, Switch, Tag, Tooltip, Typography, Upload } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import {
  CopyOutlined,
  DeleteOutlined,
  DownloadOutlined,
  DownOutlined,
  EditOutlined,
  ExperimentOutlined,
  EyeOutlined,
  FileExcelOutlined,
  LockOutlined,
  PlusOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FormType, type FormRow } from '@xinli/contract';
import { ApiError, call, download } from '../../api';
import { DataTable, ListPage, ListPagination, ListToolbar, SearchForm, useListQuery, useListState } from '../../components/list';
import { useAppOptions, useEnumOptions } from './shared';
import { fileToBase64, MAX_IMPORT_BYTES } from '../../lib/files';
import ScaleEditor, { type EditorTab } from './scale-editor/ScaleEditor';

type Filters = { formname?: string; formtype?: '01' | '02' | '03' | '04'; appid?: string; enabled?: 0 | 1; builtin?: 0 | 1 };
const LIST = 'as.m.assess.forms.getFormPageList';

interface EditorState {
  open: boolean;
  formcode: string | null;
  tab: EditorTab;
}

export default function EvaluationScale() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const list = useListState<Filters>();
  const [searchOpen, setSearchOpen] = useState(true);
  const q = useListQuery(LIST, list.input);
  const apps = useAppOptions();
  const formTypes = useEnumOptions(FormType);
  const [editor, setEditor] = useState<EditorState>({ open: false, formcode: null, tab: 'basics' });
  const [copying, setCopying] = useState<FormRow | null>(null);
  const [excelFor, setExcelFor] = useState<FormRow | null>(null);
  const k = (key: string, o?: Record<string, unknown>) => t(`evaluating.library.${key}`, o);
  const c = (key: string, o?: Record<string, unknown>) => t(`evaluating.common.${key}`, o);

  const refresh = () => queryClient.invalidateQueries({ queryKey: [LIST] });
  const openEditor = (formcode: string | null, tab: EditorTab = 'basics') => setEditor({ open: true, formcode, tab });

  const confirmDelete = (row: FormRow) =>
    modal.confirm({
      title: c('systemPrompt'),
      content: c('deleteConfirm', { name: row.formname }),
      okText: c('confirm'),
      cancelText: c('cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        await call('as.m.assess.forms.deleteForm', { formcode: row.formcode });
        message.success(c('deleted'));
        await refresh();
      },
    });

  const confirmEnable = (row: FormRow, enabled: 0 | 1) =>
    modal.confirm({
      title: c('systemPrompt'),
      content: enabled ? k('enableConfirm', { name: row.formname }) : k('disableConfirm', { name: row.formname }),
      okText: c('confirm'),
      cancelText: c('cancel'),
      onOk: async () => {
        await call('as.m.assess.forms.enableForm', { formcode: row.formcode, enabled });
        message.success(c('done'));
        await refresh();
      },
    });

  const importJson = async (file: File) => {
    if (file.size > MAX_IMPORT_BYTES) return message.error(k('importInvalid'));
    try {
      const saved = await call('as.m.assess.forms.importFormJson', { filename: file.name, content: await fileToBase64(file) });
      message.success(k('imported', { name: saved.formcode }));
      await refresh();
      openEditor(saved.formcode);
    } catch (err) {
      if (!(err instanceof ApiError)) message.error(k('importInvalid'));
    }
  };

  const moreItems = (row: FormRow) => [
    { key: 'copy', icon: <CopyOutlined />, label: c('copy') },
    { key: 'json', icon: <DownloadOutlined />, label: k('exportJson') },
    { key: 'template', icon: <FileExcelOutlined />, label: k('downloadTemplate') },
    ...(row.builtin
      ? []
      : [
          { key: 'excel', icon: <UploadOutlined />, label: k('importExcel') },
          { type: 'divider' as const },
          { key: 'delete', icon: <DeleteOutlined />, label: c('delete'), danger: true },
        ]),
  ];

  const onMore = (row: FormRow, key: string) => {
    if (key === 'copy') setCopying(row);
    else if (key === 'json')
      void download('as.m.assess.forms.exportFormJson', { formcode: row.formcode }, `${row.formcode}.json`).catch(() => undefined);
    else if (key === 'template')
      void download('as.m.assess.forms.exportFormExcelTemplate', { formcode: row.formcode }, `${row.formcode}.xlsx`).catch(() => undefined);
    else if (key === 'excel') setExcelFor(row);
    else if (key === 'delete') confirmDelete(row);
  };

  const columns: ColumnsType<FormRow> = [
    {
      title: k('formname'),
      dataIndex: 'formname',
      key: 'formname',
      width: 320,
      render: (name: string, row) => (
        <Space size={6}>
          <Typography.Link onClick={() => openEditor(row.formcode)}>{name}</Typography.Link>
          {row.builtin && (
            <Tooltip title={row.licence || k('builtinTip')}>
              <Tag icon={<LockOutlined />} color="default" data-testid="builtin-tag">
                {k('builtin')}
              </Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    { title: k('formcode'), dataIndex: 'formcode', key: 'formcode', width: 130 },
    {
      title: k('formtype'),
      dataIndex: 'formtype',
      key: 'formtype',
      width: 110,
      render: (v: string) => formTypes.find((f) => f.value === v)?.label ?? v,
    },
    {
      title: k('appid'),
      dataIndex: 'appids',
      key: 'appids',
      width: 200,
      render: (ids: string[]) =>
        ids.length ? (
          <Space size={[4, 4]} wrap>
            {ids.map((id) => (
              <Tag key={id} color="green" variant="outlined">
                {apps.nameOf(id)}
              </Tag>
            ))}
          </Space>
        ) : (
          '—'
        ),
    },
    { title: k('questioncount'), dataIndex: 'questioncount', key: 'questioncount', width: 70, align: 'right' },
    { title: k('version'), dataIndex: 'version', key: 'version', width: 70, align: 'center', render: (v: number) => `v${v}` },
    {
      title: k('origin'),
      key: 'origin',
      width: 170,
      render: (_, row) =>
        row.builtin ? (
          <Typography.Text type="secondary" ellipsis={{ tooltip: row.licence }} style={{ maxWidth: 160 }}>
            {row.licence || k('builtin')}
          </Typography.Text>
        ) : (
          <span>{row.insname || k('custom')}</span>
        ),
    },
    {
      title: k('enabled'),
      dataIndex: 'enabled',
      key: 'enabled',
      width: 90,
      align: 'center',
      render: (v: number, row) =>
        row.builtin ? (
          <Tag color={v ? 'success' : 'default'}>{v ? c('enabled') : c('disabled')}</Tag>
        ) : (
          <Switch size="small" checked={v === 1} onChange={(on) => confirmEnable(row, on ? 1 : 0)} aria-label={k('enabled')} />
        ),
    },
    {
      title: c('updatedat'),
      dataIndex: 'updatedat',
      key: 'updatedat',
      width: 160,
      render: (v: string) => v?.replace('T', ' ').slice(0, 16),
    },
    {
      title: c('actions'),
      key: 'actions',
      fixed: 'right',
      width: 220,
      render: (_, row) => (
        <Space size={0}>
          <Button type="link" size="small" icon={row.builtin ? <EyeOutlined /> : <EditOutlined />} onClick={() => openEditor(row.formcode)}>
            {row.builtin ? c('view') : c('edit')}
          </Button>
          <Button type="link" size="small" icon={<ExperimentOutlined />} onClick={() => openEditor(row.formcode, 'tryIt')}>
            {k('tryIt')}
          </Button>
          <Dropdown menu={{ items: moreItems(row), onClick: ({ key }) => onMore(row, key) }}>
            <Button type="link" size="small">
              {c('more')} <DownOutlined />
            </Button>
          </Dropdown>
        </Space>
      ),
    },
  ];

  const search = (
    <SearchForm<Filters> visible={searchOpen} onSearch={list.search} onReset={list.reset}>
      <Form.Item name="formname" label={k('formname')}>
        <Input allowClear placeholder={k('namePlaceholder')} style={{ width: 180 }} />
      </Form.Item>
      <Form.Item name="formtype" label={k('formtype')}>
        <Select allowClear options={formTypes} style={{ width: 150 }} placeholder={c('all')} />
      </Form.Item>
      <Form.Item name="appid" label={k('appid')}>
        <Select allowClear options={apps.options} style={{ width: 170 }} placeholder={c('all')} />
      </Form.Item>
      <Form.Item name="enabled" label={k('enabled')}>
        <Select
          allowClear
          style={{ width: 110 }}
          placeholder={c('all')}
          options={[
            { value: 1, label: c('enabled') },
            { value: 0, label: c('disabled') },
          ]}
        />
      </Form.Item>
      <Form.Item name="builtin" label={k('origin')}>
        <Select
          allowClear
          style={{ width: 110 }}
          placeholder={c('all')}
          options={[
            { value: 1, label: k('builtin') },
            { value: 0, label: k('custom') },
          ]}
        />
      </Form.Item>
    </SearchForm>
  );

  const toolbar = (
    <ListToolbar
      searchVisible={searchOpen}
      onToggleSearch={() => setSearchOpen(!searchOpen)}
      onRefresh={() => q.refetch()}
      actions={
        <>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => openEditor(null)} data-testid="scale-add">
            {k('add')}
          </Button>
          <Upload accept=".json,application/json" showUploadList={false} beforeUpload={(file) => (void importJson(file), false)}>
            <Button icon={<UploadOutlined />}>{k('importJson')}</Button>
          </Upload>
          <Button
            icon={<FileExcelOutlined />}
            onClick={() => void download('as.m.assess.forms.exportFormExcelTemplate', {}, 'scale-template.xlsx').catch(() => undefined)}
          >
            {k('downloadTemplate')}
          </Button>
        </>
      }
    />
  );

  return (
    <ListPage
      search={search}
      toolbar={toolbar}
      pagination={<ListPagination total={q.data?.total ?? 0} page={list.page} pageSize={list.pageSize} onChange={list.paginate} />}
    >
      <DataTable<FormRow>
        rowKey="formcode"
        columns={columns}
        rows={q.data?.rows}
        loading={q.isFetching}
        error={q.error}
        onRetry={() => q.refetch()}
        data-testid="scale-table"
      />
      <ScaleEditor
        open={editor.open}
        formcode={editor.formcode}
        initialTab={editor.tab}
        onClose={() => setEditor((e) => ({ ...e, open: false }))}
        onSaved={() => void refresh()}
      />
      <CopyDialog
        row={copying}
        onClose={() => setCopying(null)}
        onCopied={async (formcode, name) => {
          setCopying(null);
          message.success(k('copied', { name }));
          await refresh();
          openEditor(formcode);
        }}
      />
      <ExcelImportDialog row={excelFor} onClose={() => setExcelFor(null)} onDone={() => (setExcelFor(null), void refresh())} />
    </ListPage>
  );
}

function CopyDialog({
  row,
  onClose,
  onCopied,
}: {
  row: FormRow | null;
  onClose: () => void;
  onCopied: (formcode: string, name: string) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ formname: string }>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const { formname } = await form.validateFields();
    setBusy(true);
    try {
      const saved = await call('as.m.assess.forms.copyForm', { formcode: row!.formcode, formname: formname.trim() });
      onCopied(saved.formcode, formname.trim());
    } catch {
      // Shown by the request client.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={!!row}
      title={t('evaluating.library.copyTitle')}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={busy}
      okText={t('evaluating.common.confirm')}
      cancelText={t('evaluating.common.cancel')}
      destroyOnHidden
      afterOpenChange={(open) => open && row && form.setFieldsValue({ formname: `${row.formname}（${t('evaluating.common.copy')}）` })}
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="formname" label={t('evaluating.library.copyName')} rules={[{ required: true, whitespace: true, max: 100 }]}>
          <Input maxLength={100} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function ExcelImportDialog({ row, onClose, onDone }: { row: FormRow | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const upload = async (file: File) => {
    if (!row) return;
    setBusy(true);
    try {
      const saved = await call('as.m.assess.forms.importFormExcel', {
        formcode: row.formcode,
        filename: file.name,
        content: await fileToBase64(file),
      });
      message.success(t('evaluating.library.imported', { name: `${row.formname} v${saved.version} (${saved.questioncount})` }));
      onDone();
    } catch {
      // Bad rows come back in the server's message, shown by the request client.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={!!row}
      title={`${t('evaluating.library.importExcelTitle')}：${row?.formname ?? ''}`}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('evaluating.library.importExcelHint')}</Typography.Paragraph>
      <Space>
        <Button
          icon={<FileExcelOutlined />}
          onClick={() =>
            row &&
            void download('as.m.assess.forms.exportFormExcelTemplate', { formcode: row.formcode }, `${row.formcode}.xlsx`).catch(
              () => undefined,
            )
          }
        >
          {t('evaluating.library.downloadTemplate')}
        </Button>
        <Upload accept=".xlsx" showUploadList={false} beforeUpload={(file) => (void upload(file), false)} disabled={busy}>
          <Button type="primary" icon={<UploadOutlined />} loading={busy}>
            {t('evaluating.library.chooseFile')}
          </Button>
        </Upload>
      </Space>
    </Modal>
  );
}

/**
 * Assessment plan management (SPEC §2 /period/periodManagement, code 00029, hidden): the
 * assessment stages of each population app and exam category, and the scales of each stage.
 * Left: apps and their categories; right: the stage list in the RuoYi shape.
 */
import { useMemo, useState } from 'react';
import {
  App,
  Button,
  Card,
  Col,
  Drawer,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Row,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
  Tree,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  EditOutlined,
  LockOutlined,
  OrderedListOutlined,
  PlusOutlined,
  SaveOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { FormBrief, StageRow } from '@xinli/contract';
import { call } from '../../api';
import {
  DataTable,
  ErrorState,
  ListPage,
  ListPagination,
  ListToolbar,
  SearchForm,
  useListQuery,
  useListState,
} from '../../components/list';
import { useApps } from '../evaluating/shared';
import './period.css';

type Filters = { stagename?: string };
const LIST = 'as.m.app.exam.getExamStageList';

/** The categories of every app, for the left tree and the stage dialog. */
function useCategories() {
  return useQuery({
    queryKey: ['as.m.app.getExamCategoryList', { appid: '' }],
    queryFn: () => call('as.m.app.getExamCategoryList', { appid: '' }),
    staleTime: 5 * 60_000,
  });
}

export default function PeriodManagement() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const apps = useApps();
  const categories = useCategories();
  const [scope, setScope] = useState<{ appid?: string; categoryid?: string }>({});
  const list = useListState<Filters>();
  const [searchOpen, setSearchOpen] = useState(true);
  const q = useListQuery(LIST, { ...list.input, ...scope });
  const [editing, setEditing] = useState<StageRow | 'new' | null>(null);
  const [formsOf, setFormsOf] = useState<StageRow | null>(null);
  const k = (key: string, o?: Record<string, unknown>) => t(`evaluating.period.${key}`, o);
  const c = (key: string, o?: Record<string, unknown>) => t(`evaluating.common.${key}`, o);
  const refresh = () => queryClient.invalidateQueries({ queryKey: [LIST] });

  const treeData = useMemo(
    () =>
      (apps.data ?? []).map((a) => ({
        key: a.appid,
        title: a.appname,
        children: (categories.data ?? [])
          .filter((cat) => cat.appid === a.appid)
          .map((cat) => ({ key: `${a.appid}/${cat.categoryid}`, title: cat.categoryname, isLeaf: true })),
      })),
    [apps.data, categories.data],
  );

  const confirmDelete = (row: StageRow) =>
    modal.confirm({
      title: c('systemPrompt'),
      content: c('deleteConfirm', { name: row.stagename }),
      okText: c('confirm'),
      cancelText: c('cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        await call('as.m.app.exam.deleteExamStage', { stagecode: row.stagecode });
        message.success(c('deleted'));
        await refresh();
      },
    });

  const columns: ColumnsType<StageRow> = [
    {
      title: k('stagename'),
      dataIndex: 'stagename',
      key: 'stagename',
      width: 180,
      render: (name: string, row) => (
        <Space size={6}>
          <Typography.Link onClick={() => setFormsOf(row)}>{name}</Typography.Link>
          {!row.editable && (
            <Tooltip title={k('givenTip')}>
              <Tag icon={<LockOutlined />}>{k('given')}</Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    { title: k('stagecode'), dataIndex: 'stagecode', key: 'stagecode', width: 120 },
    { title: k('appid'), dataIndex: 'appname', key: 'appname', width: 150, render: (v: string) => <Tag color="green">{v}</Tag> },
    { title: k('category'), dataIndex: 'categoryname', key: 'categoryname', width: 140 },
    { title: k('formcount'), dataIndex: 'formcount', key: 'formcount', width: 80, align: 'right' },
    { title: k('sort'), dataIndex: 'sort', key: 'sort', width: 70, align: 'center' },
    { title: k('owner'), dataIndex: 'insname', key: 'insname', width: 180 },
    { title: k('description'), dataIndex: 'description', key: 'description', ellipsis: true },
    {
      title: c('actions'),
      key: 'actions',
      fixed: 'right',
      width: 210,
      render: (_, row) => (
        <Space size={0}>
          <Button type="link" size="small" icon={<OrderedListOutlined />} onClick={() => setFormsOf(row)}>
            {k('forms')}
          </Button>
          {row.editable && (
            <>
              <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(row)}>
                {c('edit')}
              </Button>
              <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => confirmDelete(row)}>
                {c('delete')}
              </Button>
            </>
          )}
        </Space>
      ),
    },
  ];

  const selectedKey = scope.categoryid ? `${scope.appid}/${scope.categoryid}` : (scope.appid ?? '__all');

  return (
    <Row gutter={12} className="period-page">
      <Col xs={24} md={6} xl={5}>
        <Card size="small" title={k('tree')} className="period-tree">
          {apps.isError || categories.isError ? (
            <ErrorState error={apps.error ?? categories.error} onRetry={() => (apps.refetch(), categories.refetch())} />
          ) : (
            <>
              <div
                className={`period-all ${selectedKey === '__all' ? 'active' : ''}`}
                onClick={() => (setScope({}), list.search({}))}
                role="button"
                tabIndex={0}
              >
                {k('allStages')}
              </div>
              <Tree
                blockNode
                defaultExpandAll
                key={`${apps.data?.length ?? 0}-${categories.data?.length ?? 0}`}
                selectedKeys={[selectedKey]}
                treeData={treeData}
                onSelect={(keys) => {
                  const key = String(keys[0] ?? '');
                  if (!key) return;
                  const [appid, categoryid] = key.split('/');
                  setScope({ appid, categoryid });
                }}
              />
            </>
          )}
        </Card>
      </Col>
      <Col xs={24} md={18} xl={19}>
        <ListPage
          search={
            <SearchForm<Filters> visible={searchOpen} onSearch={list.search} onReset={list.reset}>
              <Form.Item name="stagename" label={k('stagename')}>
                <Input allowClear style={{ width: 200 }} />
              </Form.Item>
            </SearchForm>
          }
          toolbar={
            <ListToolbar
              searchVisible={searchOpen}
              onToggleSearch={() => setSearchOpen(!searchOpen)}
              onRefresh={() => q.refetch()}
              actions={
                <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="stage-add">
                  {k('add')}
                </Button>
              }
            />
          }
          pagination={<ListPagination total={q.data?.total ?? 0} page={list.page} pageSize={list.pageSize} onChange={list.paginate} />}
        >
          <DataTable<StageRow>
            rowKey="stagecode"
            columns={columns}
            rows={q.data?.rows}
            loading={q.isFetching}
            error={q.error}
            onRetry={() => q.refetch()}
          />
        </ListPage>
      </Col>
      <StageDialog stage={editing} defaults={scope} onClose={() => setEditing(null)} onSaved={() => (setEditing(null), void refresh())} />
      <StageFormsDrawer stage={formsOf} onClose={() => setFormsOf(null)} onChanged={() => void refresh()} />
    </Row>
  );
}

interface StageValues {
  appid: string;
  categoryid: string;
  stagename: string;
  description?: string;
  sort?: number;
  formcodes?: string[];
}

/** App forms for a picker: built-in and own enabled scales of one app. */
function useAppForms(appid: string | undefined) {
  return useQuery({
    queryKey: ['as.m.exam.getExamForms', { appid }],
    queryFn: () => call('as.m.exam.getExamForms', { appid: appid! }),
    enabled: !!appid,
  });
}

function StageDialog({
  stage,
  defaults,
  onClose,
  onSaved,
}: {
  stage: StageRow | 'new' | null;
  defaults: { appid?: string; categoryid?: string };
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<StageValues>();
  const apps = useApps();
  const categories = useCategories();
  const appid = Form.useWatch('appid', form);
  const forms = useAppForms(appid);
  const [busy, setBusy] = useState(false);
  const isNew = stage === 'new';
  const k = (key: string, o?: Record<string, unknown>) => t(`evaluating.period.${key}`, o);

  const submit = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      if (isNew)
        await call('as.m.app.exam.insertExamStage', {
          appid: v.appid,
          categoryid: v.categoryid,
          stagename: v.stagename.trim(),
          description: v.description ?? '',
          sort: v.sort ?? 0,
          formcodes: v.formcodes ?? [],
        });
      else if (stage)
        await call('as.m.app.exam.updateExamStage', {
          stagecode: stage.stagecode,
          stagename: v.stagename.trim(),
          categoryid: v.categoryid,
          description: v.description ?? '',
          sort: v.sort ?? 0,
        });
      message.success(t('evaluating.common.saved'));
      onSaved();
    } catch {
      // Shown by the request client.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={!!stage}
      title={isNew ? k('createTitle') : k('editTitle', { name: stage ? (stage as StageRow).stagename : '' })}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={busy}
      okText={t('evaluating.common.save')}
      cancelText={t('evaluating.common.cancel')}
      destroyOnHidden
      width={620}
      afterOpenChange={(open) => {
        if (!open) return;
        if (stage && stage !== 'new')
          form.setFieldsValue({
            appid: stage.appid,
            categoryid: stage.categoryid,
            stagename: stage.stagename,
            description: stage.description,
            sort: stage.sort,
          });
        else form.setFieldsValue({ appid: defaults.appid, categoryid: defaults.categoryid, sort: 0 });
      }}
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item name="appid" label={k('appid')} rules={[{ required: true }]}>
              <Select
                disabled={!isNew}
                options={(apps.data ?? []).map((a) => ({ value: a.appid, label: a.appname }))}
                onChange={() => form.setFieldsValue({ categoryid: undefined, formcodes: [] })}
              />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="categoryid" label={k('category')} rules={[{ required: true }]}>
              <Select
                options={(categories.data ?? [])
                  .filter((c) => c.appid === appid)
                  .map((c) => ({ value: c.categoryid, label: c.categoryname }))}
                notFoundContent={appid ? k('noCategory') : k('chooseAppFirst')}
              />
            </Form.Item>
          </Col>
          <Col span={16}>
            <Form.Item name="stagename" label={k('stagename')} rules={[{ required: true, whitespace: true, max: 64 }]}>
              <Input maxLength={64} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="sort" label={k('sort')}>
              <InputNumber min={0} max={10000} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="description" label={k('description')}>
              <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={500} />
            </Form.Item>
          </Col>
          {isNew && (
            <Col span={24}>
              <Form.Item name="formcodes" label={k('forms')} extra={k('formsHelp')}>
                <Select
                  mode="multiple"
                  loading={forms.isLoading}
                  options={(forms.data ?? []).map((f) => ({ value: f.formcode, label: f.formname }))}
                  showSearch={{ optionFilterProp: 'label' }}
                />
              </Form.Item>
            </Col>
          )}
        </Row>
      </Form>
    </Modal>
  );
}

type StageForm = FormBrief & { sort: number };

/** The scales of one stage, in order: add, remove, reorder, save. Given stages are read-only. */
function StageFormsDrawer({ stage, onClose, onChanged }: { stage: StageRow | null; onClose: () => void; onChanged: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const key = ['as.m.app.exam.getExamStageForms', { stagecode: stage?.stagecode }];
  const current = useQuery({
    queryKey: key,
    queryFn: () => call('as.m.app.exam.getExamStageForms', { stagecode: stage!.stagecode }),
    enabled: !!stage,
  });
  const available = useAppForms(stage?.appid);
  const [draft, setDraft] = useState<StageForm[] | null>(null);
  const [adding, setAdding] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const rows = draft ?? current.data ?? [];
  const editable = !!stage?.editable;
  const k = (key: string, o?: Record<string, unknown>) => t(`evaluating.period.${key}`, o);

  const move = (i: number, to: number) => {
    const next = [...rows];
    const [x] = next.splice(i, 1);
    next.splice(to, 0, x);
    setDraft(next);
  };
  const add = () => {
    const have = new Set(rows.map((r) => r.formcode));
    const extra = (available.data ?? [])
      .filter((f) => adding.includes(f.formcode) && !have.has(f.formcode))
      .map((f, i) => ({ ...f, sort: rows.length + i }));
    setDraft([...rows, ...extra]);
    setAdding([]);
  };
  const save = async () => {
    setBusy(true);
    try {
      await call('as.m.app.exam.updateExamStageForms', { stagecode: stage!.stagecode, formcodes: rows.map((r) => r.formcode) });
      message.success(t('evaluating.common.saved'));
      setDraft(null);
      await queryClient.invalidateQueries({ queryKey: key });
      onChanged();
    } catch {
      // Shown by the request client.
    } finally {
      setBusy(false);
    }
  };
  const close = () => {
    setDraft(null);
    setAdding([]);
    onClose();
  };

  const columns: ColumnsType<StageForm> = [
    { title: '#', key: 'i', width: 50, render: (_, __, i) => i + 1 },
    { title: t('evaluating.library.formname'), dataIndex: 'formname', key: 'formname' },
    { title: t('evaluating.library.formcode'), dataIndex: 'formcode', key: 'formcode', width: 120 },
    { title: t('evaluating.library.questioncount'), dataIndex: 'questioncount', key: 'questioncount', width: 70, align: 'right' },
    ...(editable
      ? [
          {
            title: t('evaluating.common.actions'),
            key: 'actions',
            width: 130,
            render: (_: unknown, r: StageForm, i: number) => (
              <Space size={0}>
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowUpOutlined />}
                  disabled={i === 0}
                  onClick={() => move(i, i - 1)}
                  aria-label={t('evaluating.common.moveUp')}
                />
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowDownOutlined />}
                  disabled={i === rows.length - 1}
                  onClick={() => move(i, i + 1)}
                  aria-label={t('evaluating.common.moveDown')}
                />
                <Button type="link" size="small" danger onClick={() => setDraft(rows.filter((x) => x.formcode !== r.formcode))}>
                  {k('removeForm')}
                </Button>
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <Drawer
      open={!!stage}
      onClose={close}
      size={720}
      title={stage ? k('formsTitle', { name: stage.stagename }) : ''}
      extra={
        editable && (
          <Button type="primary" icon={<SaveOutlined />} disabled={!draft} loading={busy} onClick={save}>
            {t('evaluating.common.save')}
          </Button>
        )
      }
    >
      {!editable && stage && <Typography.Paragraph type="secondary">{k('givenTip')}</Typography.Paragraph>}
      {editable && (
        <Space.Compact style={{ width: '100%', marginBottom: 12 }}>
          <Select
            mode="multiple"
            style={{ width: '100%' }}
            value={adding}
            onChange={setAdding}
            placeholder={t('evaluating.plans.chooseForms')}
            loading={available.isLoading}
            showSearch={{ optionFilterProp: 'label' }}
            options={(available.data ?? [])
              .filter((f) => !rows.some((r) => r.formcode === f.formcode))
              .map((f) => ({ value: f.formcode, label: f.formname }))}
          />
          <Button type="primary" icon={<PlusOutlined />} disabled={!adding.length} onClick={add}>
            {k('addForms')}
          </Button>
        </Space.Compact>
      )}
      {current.isError ? (
        <ErrorState error={current.error} onRetry={() => current.refetch()} />
      ) : (
        <Table<StageForm>
          size="small"
          bordered
          rowKey="formcode"
          pagination={false}
          loading={current.isLoading}
          columns={columns}
          dataSource={rows}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
        />
      )}
      <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
        {k('formsHelp')}
      </Typography.Paragraph>
    </Drawer>
  );
}

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
import { LockOutlined, OrderedListOutlined, PlusOutlined, SaveOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { planActions, type FormBrief, type StageRow } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { ErrorState, f, ListView, useListPage } from '../../components/list';
import { Field, FormDialog } from '../../components/form';
import { noOptions, useApps } from '../../components/pickers';
import OrderButtons from '../../components/OrderButtons';
import './period.css';
import { useT } from '../../i18n/useT';

const LIST = 'as.m.app.exam.getExamStageList';

/** The categories of every app, for the left tree and the stage dialog. */
function useCategories() {
  return useAction('as.m.app.getExamCategoryList', { appid: '' }, { staleTime: 5 * 60_000 });
}

export default function PeriodManagement() {
  const apps = useApps();
  const categories = useCategories();
  const [scope, setScope] = useState<{ appid?: string; categoryid?: string }>({});
  const list = useListPage(LIST, { resource: 'period.stage', filters: [f.text('stagename', { width: 200 })], input: scope });
  const [editing, setEditing] = useState<StageRow | 'new' | null>(null);
  const [formsOf, setFormsOf] = useState<StageRow | null>(null);
  const k = useT('period.stage');
  const { col } = list;

  const treeData = useMemo(
    () =>
      (apps.query.data ?? []).map((a) => ({
        key: a.appid,
        title: a.appname,
        children: (categories.data ?? [])
          .filter((cat) => cat.appid === a.appid)
          .map((cat) => ({ key: `${a.appid}/${cat.categoryid}`, title: cat.categoryname, isLeaf: true })),
      })),
    [apps.query.data, categories.data],
  );
  const selectedKey = scope.categoryid ? `${scope.appid}/${scope.categoryid}` : (scope.appid ?? '__all');
  const choose = (next: { appid?: string; categoryid?: string }) => {
    setScope(next);
    list.paginate(1, list.pageSize);
  };

  return (
    <Row gutter={12} className="period-page">
      <Col xs={24} md={6} xl={4}>
        <Card size="small" title={k('tree')} className="period-tree">
          {apps.query.isError || categories.isError ? (
            <ErrorState error={apps.query.error ?? categories.error} onRetry={() => (apps.query.refetch(), categories.refetch())} />
          ) : (
            <>
              <div
                className={`period-all ${selectedKey === '__all' ? 'active' : ''}`}
                onClick={() => choose({})}
                role="button"
                tabIndex={0}
              >
                {k('allStages')}
              </div>
              <Tree
                blockNode
                defaultExpandAll
                key={`${apps.query.data?.length ?? 0}-${categories.data?.length ?? 0}`}
                selectedKeys={[selectedKey]}
                treeData={treeData}
                onSelect={(keys) => {
                  const key = String(keys[0] ?? '');
                  if (!key) return;
                  const [appid, categoryid] = key.split('/');
                  choose({ appid, categoryid });
                }}
              />
            </>
          )}
        </Card>
      </Col>
      <Col xs={24} md={18} xl={20}>
        <ListView<StageRow>
          list={list}
          add={{ action: 'as.m.app.exam.insertExamStage', onClick: () => setEditing('new'), label: k('add'), testId: 'stage-add' }}
          rowKey="stagecode"
          columns={[
            col.text('stagename', {
              width: 130,
              render: (name: string, row) => (
                <Space size={4} wrap>
                  <Typography.Link onClick={() => setFormsOf(row)}>{name}</Typography.Link>
                  {!row.editable && (
                    <Tooltip title={k('givenTip')}>
                      <Tag icon={<LockOutlined />}>{k('given')}</Tag>
                    </Tooltip>
                  )}
                </Space>
              ),
            }),
            col.text('stagecode', { width: 90 }),
            col.text('appname', { title: col.title('appid'), width: 100, render: (v: string) => <Tag color="green">{v}</Tag> }),
            col.text('categoryname', { title: col.title('category'), width: 100 }),
            col.text('formcount', { width: 60, align: 'right' }),
            col.text('sort', { width: 56, align: 'center' }),
            col.text('insname', { title: col.title('owner'), width: 110 }),
            col.text('description', { width: 110, ellipsis: true }),
            col.actions(
              (row) => [
                { key: 'forms', label: k('forms'), icon: <OrderedListOutlined />, onClick: () => setFormsOf(row) },
                { key: 'edit', action: 'as.m.app.exam.updateExamStage', hidden: !row.editable, onClick: () => setEditing(row) },
                col.remove('as.m.app.exam.deleteExamStage', { stagecode: row.stagecode }, row.stagename, { hidden: !row.editable }),
              ],
              { width: 180 },
            ),
          ]}
        />
      </Col>
      <StageDialog stage={editing} defaults={scope} onClose={() => setEditing(null)} />
      <StageFormsDrawer stage={formsOf} onClose={() => setFormsOf(null)} onChanged={() => void list.invalidate()} />
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
  return useAction('as.m.exam.getExamForms', { appid: appid ?? '' }, { enabled: !!appid });
}

function StageDialog({
  stage,
  defaults,
  onClose,
}: {
  stage: StageRow | 'new' | null;
  defaults: { appid?: string; categoryid?: string };
  onClose: () => void;
}) {
  const [form] = Form.useForm<StageValues>();
  const apps = useApps();
  const categories = useCategories();
  const appid = Form.useWatch('appid', form);
  const forms = useAppForms(appid);
  const isNew = stage === 'new';
  const k = useT('period.stage');

  const submit = async (v: StageValues) => {
    const fields = { categoryid: v.categoryid, stagename: v.stagename.trim(), description: v.description ?? '', sort: v.sort ?? 0 };
    if (isNew) await call('as.m.app.exam.insertExamStage', { appid: v.appid, ...fields, formcodes: v.formcodes ?? [] });
    else if (stage) await call('as.m.app.exam.updateExamStage', { stagecode: stage.stagecode, ...fields });
  };

  return (
    <FormDialog<StageValues>
      open={!!stage}
      title={isNew ? k('createTitle') : k('editTitle', { name: stage ? (stage as StageRow).stagename : '' })}
      action={planActions['as.m.app.exam.insertExamStage']}
      resource="period.stage"
      form={form}
      layout="vertical"
      width={620}
      values={
        stage && stage !== 'new'
          ? {
              appid: stage.appid,
              categoryid: stage.categoryid,
              stagename: stage.stagename,
              description: stage.description,
              sort: stage.sort,
            }
          : { appid: defaults.appid, categoryid: defaults.categoryid, sort: 0 }
      }
      onSubmit={submit}
      invalidates={[LIST]}
      onClose={onClose}
    >
      <Row gutter={12}>
        <Field span={12} name="appid">
          <Select disabled={!isNew} options={apps.options} onChange={() => form.setFieldsValue({ categoryid: undefined, formcodes: [] })} />
        </Field>
        <Field span={12} name="categoryid" label={k('category')}>
          <Select
            options={(categories.data ?? []).filter((c) => c.appid === appid).map((c) => ({ value: c.categoryid, label: c.categoryname }))}
            notFoundContent={appid ? noOptions(categories, k('noCategory')) : k('chooseAppFirst')}
          />
        </Field>
        <Field span={16} name="stagename">
          <Input />
        </Field>
        <Field span={8} name="sort">
          <InputNumber min={0} max={10000} precision={0} style={{ width: '100%' }} />
        </Field>
        <Field span={24} name="description">
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
        </Field>
        {isNew && (
          <Field span={24} name="formcodes" label={k('forms')} extra={k('formsHelp')}>
            <Select
              mode="multiple"
              loading={forms.isLoading}
              options={(forms.data ?? []).map((f) => ({ value: f.formcode, label: f.formname }))}
              showSearch={{ optionFilterProp: 'label' }}
            />
          </Field>
        )}
      </Row>
    </FormDialog>
  );
}

type StageForm = FormBrief & { sort: number };

/** The scales of one stage, in order: add, remove, reorder, save. Given stages are read-only. */
function StageFormsDrawer({ stage, onClose, onChanged }: { stage: StageRow | null; onClose: () => void; onChanged: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const key = ['as.m.app.exam.getExamStageForms', { stagecode: stage?.stagecode }];
  const current = useAction('as.m.app.exam.getExamStageForms', { stagecode: stage?.stagecode ?? '' }, { enabled: !!stage });
  const available = useAppForms(stage?.appid);
  const [draft, setDraft] = useState<StageForm[] | null>(null);
  const [adding, setAdding] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const rows = draft ?? current.data ?? [];
  const editable = !!stage?.editable;
  const k = useT('period.stage');

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
      message.success(t('common.saved'));
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
            title: t('common.actions'),
            key: 'actions',
            width: 130,
            render: (_: unknown, r: StageForm, i: number) => (
              <Space size={0}>
                <OrderButtons index={i} count={rows.length} onMove={move} small />
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
            {t('common.save')}
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
      {current.error && !current.data ? (
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

/**
 * The plan library (SPEC §2 /evaluating/newInstitutionalEvaluation, code 00002): assessment
 * plans (bundles of stages and scales) of the institution, or of several institutions at once;
 * create, edit, delete, mark as frequently used, and authorise a plan to an institution for a
 * number of assessments between two dates.
 */
import { useState } from 'react';
import { App, Button, Form, Input, Segmented, Select, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DeleteOutlined, EditOutlined, EyeOutlined, KeyOutlined, PlusOutlined, StarFilled, StarOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PlanRow } from '@xinli/contract';
import { call } from '../../api';
import { DataTable, ListPage, ListPagination, ListToolbar, SearchForm, useListQuery, useListState } from '../../components/list';
import { useAppOptions } from './shared';
import PlanEditor from './plan/PlanEditor';
import PlanDetail from './plan/PlanDetail';
import AuthorizeDialog from './plan/AuthorizeDialog';
import { InstitutionsInput } from './plan/InstitutionInput';

type Filters = { planname?: string; appid?: string; iscommon?: 0 | 1 };
type View = 'mine' | 'multiple';
const MINE = 'as.m.exam.plan.getMUserExamPlanPage';
const MULTIPLE = 'as.m.exam.plan.getMultipleMUserExamPlanPage';

/** A row of either list: the multiple-institution list adds the holder and its authorisation. */
type Row = PlanRow & {
  holder?: string;
  holdername?: string;
  origin?: 'own' | 'authorized';
  count?: number | null;
  usedcount?: number | null;
  startdate?: string | null;
  enddate?: string | null;
};

export default function NewInstitutionalEvaluation() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const apps = useAppOptions();
  const [view, setView] = useState<View>('mine');
  const [musercodes, setMusercodes] = useState<string[]>([]);
  const list = useListState<Filters>();
  const [searchOpen, setSearchOpen] = useState(true);
  const mine = useListQuery(MINE, list.input, { enabled: view === 'mine' });
  // The several-institution list has no "common" filter (it is a per-owner mark).
  const multipleInput = {
    planname: list.input.planname,
    appid: list.input.appid,
    page: list.input.page,
    pageSize: list.input.pageSize,
    musercodes,
  };
  const multiple = useListQuery(MULTIPLE, multipleInput, { enabled: view === 'multiple' && musercodes.length > 0 });
  const q = view === 'mine' ? mine : multiple;
  const [editing, setEditing] = useState<PlanRow | 'new' | null>(null);
  const [viewing, setViewing] = useState<PlanRow | null>(null);
  const [authorizing, setAuthorizing] = useState<PlanRow | null>(null);
  const k = (key: string, o?: Record<string, unknown>) => t(`evaluating.plans.${key}`, o);
  const c = (key: string, o?: Record<string, unknown>) => t(`evaluating.common.${key}`, o);

  const refresh = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: [MINE] }), queryClient.invalidateQueries({ queryKey: [MULTIPLE] })]);

  const toggleCommon = async (row: PlanRow) => {
    await call('as.m.exam.plan.updatePlanIsCommon', { plancode: row.plancode, iscommon: row.iscommon ? 0 : 1 });
    message.success(c('done'));
    await refresh();
  };

  const confirmDelete = (row: PlanRow) =>
    modal.confirm({
      title: c('systemPrompt'),
      content: c('deleteConfirm', { name: row.planname }),
      okText: c('confirm'),
      cancelText: c('cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        await call('as.m.exam.plan.deleteMUserExamPlan', { plancode: row.plancode });
        message.success(c('deleted'));
        await refresh();
      },
    });

  const columns: ColumnsType<Row> = [
    {
      title: k('planname'),
      dataIndex: 'planname',
      key: 'planname',
      width: 220,
      render: (name: string, row) => (
        <Space size={6}>
          {row.iscommon === 1 && <StarFilled style={{ color: '#f5a623' }} aria-label={k('iscommon')} />}
          <Typography.Link onClick={() => setViewing(row)}>{name}</Typography.Link>
        </Space>
      ),
    },
    { title: k('plancode'), dataIndex: 'plancode', key: 'plancode', width: 120 },
    { title: k('appid'), dataIndex: 'appname', key: 'appname', width: 150, render: (v: string) => <Tag color="green">{v}</Tag> },
    { title: k('stagecount'), dataIndex: 'stagecount', key: 'stagecount', width: 80, align: 'right' },
    { title: k('formcount'), dataIndex: 'formcount', key: 'formcount', width: 80, align: 'right' },
    ...(view === 'multiple'
      ? ([
          { title: k('institutions'), dataIndex: 'holdername', key: 'holdername', width: 170 },
          {
            title: k('origin'),
            dataIndex: 'origin',
            key: 'origin',
            width: 90,
            render: (v: Row['origin']) =>
              v === 'authorized' ? <Tag color="blue">{k('originAuthorized')}</Tag> : <Tag>{k('originOwn')}</Tag>,
          },
          {
            title: k('count'),
            key: 'count',
            width: 110,
            render: (_: unknown, r: Row) => (r.count === null || r.count === undefined ? '—' : `${r.usedcount ?? 0} / ${r.count}`),
          },
          {
            title: k('validity'),
            key: 'validity',
            width: 200,
            render: (_: unknown, r: Row) => (r.startdate ? `${r.startdate} ~ ${r.enddate}` : '—'),
          },
        ] as ColumnsType<Row>)
      : ([{ title: k('owner'), dataIndex: 'insname', key: 'insname', width: 170 }] as ColumnsType<Row>)),
    {
      title: k('iscommon'),
      dataIndex: 'iscommon',
      key: 'iscommon',
      width: 80,
      align: 'center',
      render: (v: number, row) =>
        row.editable ? (
          <Switch
            size="small"
            checked={v === 1}
            onChange={() => void toggleCommon(row)}
            aria-label={v ? k('unmarkCommon') : k('markCommon')}
          />
        ) : v ? (
          c('yes')
        ) : (
          c('no')
        ),
    },
    {
      title: c('updatedat'),
      dataIndex: 'updatedat',
      key: 'updatedat',
      width: 150,
      render: (v: string) => v?.replace('T', ' ').slice(0, 16),
    },
    {
      title: c('actions'),
      key: 'actions',
      fixed: 'right',
      width: 260,
      render: (_, row) => (
        <Space size={0}>
          <Button type="link" size="small" icon={<EyeOutlined />} onClick={() => setViewing(row)}>
            {c('view')}
          </Button>
          {row.editable ? (
            <>
              <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(row)}>
                {c('edit')}
              </Button>
              <Button type="link" size="small" icon={<KeyOutlined />} onClick={() => setAuthorizing(row)}>
                {k('authorize')}
              </Button>
              <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => confirmDelete(row)}>
                {c('delete')}
              </Button>
            </>
          ) : (
            <Tooltip title={k('readOnly')}>
              <Tag>{c('readOnly')}</Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
  ];

  const search = (
    <SearchForm<Filters> visible={searchOpen} onSearch={list.search} onReset={list.reset}>
      {view === 'multiple' && (
        <Form.Item label={k('institutions')}>
          <InstitutionsInput
            value={musercodes}
            onChange={setMusercodes}
            style={{ width: 280 }}
            placeholder={k('institutionsPlaceholder')}
          />
        </Form.Item>
      )}
      <Form.Item name="planname" label={k('planname')}>
        <Input allowClear style={{ width: 180 }} />
      </Form.Item>
      <Form.Item name="appid" label={k('appid')}>
        <Select allowClear options={apps.options} style={{ width: 170 }} placeholder={c('all')} />
      </Form.Item>
      {view === 'mine' && (
        <Form.Item name="iscommon" label={k('iscommon')}>
          <Select
            allowClear
            style={{ width: 100 }}
            placeholder={c('all')}
            options={[
              { value: 1, label: c('yes') },
              { value: 0, label: c('no') },
            ]}
          />
        </Form.Item>
      )}
    </SearchForm>
  );

  const toolbar = (
    <ListToolbar
      searchVisible={searchOpen}
      onToggleSearch={() => setSearchOpen(!searchOpen)}
      onRefresh={() => q.refetch()}
      actions={
        <>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="plan-add">
            {k('add')}
          </Button>
          <Segmented<View>
            value={view}
            onChange={setView}
            options={[
              { value: 'mine', label: k('viewMine'), icon: <StarOutlined /> },
              { value: 'multiple', label: k('viewMultiple') },
            ]}
          />
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
      <DataTable<Row>
        rowKey={(r) => `${r.plancode}/${r.holder ?? ''}`}
        columns={columns}
        rows={view === 'multiple' && musercodes.length === 0 ? [] : q.data?.rows}
        loading={q.isFetching}
        error={q.error}
        onRetry={() => q.refetch()}
      />
      <PlanEditor plan={editing} onClose={() => setEditing(null)} onSaved={() => (setEditing(null), void refresh())} />
      <PlanDetail plan={viewing} onClose={() => setViewing(null)} onAuthorize={(p) => setAuthorizing(p)} />
      <AuthorizeDialog plan={authorizing} onClose={() => setAuthorizing(null)} onDone={() => (setAuthorizing(null), void refresh())} />
    </ListPage>
  );
}

/**
 * The plan library (SPEC §2 /evaluating/newInstitutionalEvaluation, code 00002): assessment
 * plans (bundles of stages and scales) of the institution, or of several institutions at once;
 * create, edit, delete, mark as frequently used, and authorise a plan to an institution for a
 * number of assessments between two dates.
 */
import { useState } from 'react';
import { Form, Segmented, Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { EyeOutlined, KeyOutlined, StarFilled, StarOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PlanRow } from '@xinli/contract';
import { f, ListView, useListPage } from '../../components/list';
import PlanEditor from './plan/PlanEditor';
import PlanDetail from './plan/PlanDetail';
import AuthorizeDialog from './plan/AuthorizeDialog';
import { InstitutionsInput } from './plan/InstitutionInput';
import { useT } from '../../i18n/useT';

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
  const [view, setView] = useState<View>('mine');
  const [musercodes, setMusercodes] = useState<string[]>([]);
  const k = useT('evaluating.plans');
  const yesNo = [
    { value: 1, label: t('common.yes') },
    { value: 0, label: t('common.no') },
  ];
  // Both lists share the URL's name and population filters; "common" is a per-owner mark of the own list.
  const mine = useListPage(MINE, {
    resource: 'evaluating.plans',
    filters: [f.text('planname'), f.app(), f.select('iscommon', yesNo, { width: 100 })],
    enabled: view === 'mine',
    invalidates: [MULTIPLE],
  });
  const multiple = useListPage(MULTIPLE, {
    resource: 'evaluating.plans',
    filters: [f.text('planname'), f.app()],
    input: { musercodes },
    enabled: view === 'multiple' && musercodes.length > 0,
    invalidates: [MINE],
  });
  const list = view === 'mine' ? mine : multiple;
  const [editing, setEditing] = useState<PlanRow | 'new' | null>(null);
  const [viewing, setViewing] = useState<PlanRow | null>(null);
  const [authorizing, setAuthorizing] = useState<PlanRow | null>(null);
  const col = list.colFor<Row>();

  const columns: ColumnsType<Row> = [
    col.text('planname', {
      width: 200,
      render: (name: string, row) => (
        <Space size={6}>
          {row.iscommon === 1 && <StarFilled style={{ color: '#f5a623' }} aria-label={k('iscommon')} />}
          <Typography.Link onClick={() => setViewing(row)}>{name}</Typography.Link>
        </Space>
      ),
    }),
    col.text('plancode', { width: 110 }),
    col.text('appname', { title: col.title('appid'), width: 130, render: (v: string) => <Tag color="green">{v}</Tag> }),
    col.text('stagecount', { width: 76, align: 'right' }),
    col.text('formcount', { width: 76, align: 'right' }),
    ...(view === 'multiple'
      ? [
          col.text('holdername', { title: col.title('institutions'), width: 150 }),
          col.text('origin', {
            width: 90,
            render: (v: Row['origin']) =>
              v === 'authorized' ? <Tag color="blue">{k('originAuthorized')}</Tag> : <Tag>{k('originOwn')}</Tag>,
          }),
          col.text('count', {
            width: 100,
            render: (_: unknown, r) => (r.count === null || r.count === undefined ? '—' : `${r.usedcount ?? 0} / ${r.count}`),
          }),
          {
            title: col.title('validity'),
            key: 'validity',
            width: 190,
            render: (_: unknown, r: Row) => (r.startdate ? `${r.startdate} ~ ${r.enddate}` : '—'),
          },
        ]
      : [col.text('insname', { title: col.title('owner'), width: 130 })]),
    col.enabled(
      {
        field: 'iscommon',
        action: 'as.m.exam.plan.updatePlanIsCommon',
        input: (row, iscommon) => ({ plancode: row.plancode, iscommon }),
        name: (row) => row.planname,
        confirm: 'none',
        success: () => t('common.done'),
        tag: (v) => (v ? t('common.yes') : t('common.no')),
        readOnly: (row) => !row.editable,
      },
      { title: col.title('iscommon'), width: 70 },
    ),
    col.time('updatedat'),
    col.actions(
      (row) => [
        { key: 'view', icon: <EyeOutlined />, onClick: () => setViewing(row) },
        { key: 'edit', action: 'as.m.exam.plan.updateMUserExamPlan', hidden: !row.editable, onClick: () => setEditing(row) },
        {
          key: 'authorize',
          label: k('authorize'),
          icon: <KeyOutlined />,
          action: 'as.m.exam.plan.authorizePlan',
          hidden: !row.editable,
          onClick: () => setAuthorizing(row),
        },
        col.remove('as.m.exam.plan.deleteMUserExamPlan', { plancode: row.plancode }, row.planname, { hidden: !row.editable }),
      ],
      { width: 210 },
    ),
  ];
  // Plans authorised to the caller are read-only: say so after the view link.
  const actions = columns[columns.length - 1] as (typeof columns)[number] & { render: NonNullable<ColumnsType<Row>[number]['render']> };
  const withNote = {
    ...actions,
    render: (v: unknown, row: Row, i: number) => (
      <Space size={0}>
        {actions.render(v, row, i) as React.ReactNode}
        {!row.editable && (
          <Tooltip title={k('readOnly')}>
            <Tag>{t('common.readOnly')}</Tag>
          </Tooltip>
        )}
      </Space>
    ),
  };

  return (
    <ListView<Row>
      list={list}
      searchBefore={
        view === 'multiple' && (
          <Form.Item label={k('institutions')}>
            <InstitutionsInput
              value={musercodes}
              onChange={setMusercodes}
              style={{ width: 280 }}
              placeholder={k('institutionsPlaceholder')}
            />
          </Form.Item>
        )
      }
      add={{ action: 'as.m.exam.plan.insertMUserExamPlan', onClick: () => setEditing('new'), label: k('add'), testId: 'plan-add' }}
      actions={
        <Segmented<View>
          value={view}
          onChange={setView}
          options={[
            { value: 'mine', label: k('viewMine'), icon: <StarOutlined /> },
            { value: 'multiple', label: k('viewMultiple') },
          ]}
        />
      }
      rowKey={(r) => `${r.plancode}/${r.holder ?? ''}`}
      rows={view === 'multiple' && musercodes.length === 0 ? [] : (list.rows as Row[] | undefined)}
      columns={[...columns.slice(0, -1), withNote]}
    >
      <PlanEditor plan={editing} onClose={() => setEditing(null)} onSaved={() => (setEditing(null), void list.invalidate())} />
      <PlanDetail plan={viewing} onClose={() => setViewing(null)} onAuthorize={(p) => setAuthorizing(p)} />
      <AuthorizeDialog
        plan={authorizing}
        onClose={() => setAuthorizing(null)}
        onDone={() => (setAuthorizing(null), void list.invalidate())}
      />
    </ListView>
  );
}

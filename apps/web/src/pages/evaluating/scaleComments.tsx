/**
 * The comments database (SPEC §2 /evaluating/scaleComments, code 00004): the interpretation and
 * advice texts of every score band of the readable scales, editable for the institution's own.
 */
import { useState } from 'react';
import { Col, Input, Row, Space, Tag, Tooltip, Typography } from 'antd';
import { AlertOutlined, EditOutlined, LockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { scaleActions, type LocalText } from '@xinli/contract';
import { call } from '../../api';
import { f, ListView, useListPage, type Rows } from '../../components/list';
import { Field, FormDialog } from '../../components/form';
import { LEVELS, LevelTag, useLevelLabel } from '../../components/levels';
import { useLocalText } from '../../lib/options';
import { useT } from '../../i18n/useT';

const LIST = 'as.m.assess.comment.getCommentPageList';
type CommentRow = Rows<typeof LIST>;

export default function ScaleComments() {
  const { t } = useTranslation();
  const text = useLocalText();
  const levelLabel = useLevelLabel();
  const list = useListPage(LIST, {
    resource: 'evaluating.comments',
    filters: [
      f.text('formname'),
      f.select(
        'level',
        LEVELS.map((l) => ({ value: l, label: `${l} · ${levelLabel(l)}` })),
      ),
      f.select(
        'builtin',
        [
          { value: 1, label: t('evaluating.library.builtin') },
          { value: 0, label: t('evaluating.library.custom') },
        ],
        { label: t('evaluating.library.origin'), width: 110 },
      ),
    ],
  });
  const [editing, setEditing] = useState<CommentRow | null>(null);
  const k = useT('evaluating.comments');
  const { col } = list;
  const edit = col.actions(
    (row) => [{ key: 'edit', icon: <EditOutlined />, action: 'as.m.assess.comment.updateComment', onClick: () => setEditing(row) }],
    { width: 100 },
  );

  // Long texts wrap to two lines in a bounded column, the rest in a tooltip.
  const longCell = (value: LocalText) => {
    const s = text(value);
    return s ? (
      <Typography.Paragraph ellipsis={{ rows: 2, tooltip: s }} style={{ marginBottom: 0 }}>
        {s}
      </Typography.Paragraph>
    ) : (
      <Typography.Text type="secondary">—</Typography.Text>
    );
  };

  return (
    <ListView<CommentRow>
      list={list}
      rowKey="optionid"
      columns={[
        col.text('formname', {
          width: 150,
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
        }),
        col.text('quotaname', { title: col.title('indicator'), width: 110 }),
        {
          title: col.title('range'),
          key: 'range',
          width: 90,
          align: 'center',
          render: (_: unknown, r: CommentRow) => `${r.min} ~ ${r.max}`,
        },
        col.text('level', { width: 110, render: (_: unknown, r) => <LevelTag level={r.level} label={r.label} /> }),
        col.text('interpretation', { width: 200, render: longCell }),
        col.text('advice', { width: 200, render: longCell }),
        col.text('raisesWarning', {
          width: 64,
          align: 'center',
          render: (v: boolean) => (v ? <AlertOutlined style={{ color: '#e8590c' }} aria-label={k('raisesWarning')} /> : null),
        }),
        {
          ...edit,
          // Built-in scales' comments are read-only: say so where the edit link would be.
          render: (v: unknown, row: CommentRow, i: number) =>
            row.builtin ? <Tag icon={<LockOutlined />}>{t('common.readOnly')}</Tag> : edit.render!(v, row, i),
        },
      ]}
    >
      <CommentDialog row={editing} onClose={() => setEditing(null)} />
    </ListView>
  );
}

function CommentDialog({ row, onClose }: { row: CommentRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const k = useT('evaluating.comments');
  const area = (name: [string, string], label: string) => (
    <Field name={name} label={label}>
      <Input.TextArea autoSize={{ minRows: 4, maxRows: 10 }} showCount />
    </Field>
  );
  return (
    <FormDialog<{ interpretation: LocalText; advice: LocalText }>
      open={!!row}
      width={860}
      title={row ? t('evaluating.comments.editTitle', { form: row.formname, indicator: row.quotaname, label: row.label }) : ''}
      action={scaleActions['as.m.assess.comment.updateComment']}
      resource="evaluating.comments"
      layout="vertical"
      values={row ? { interpretation: row.interpretation, advice: row.advice } : undefined}
      onSubmit={(v) =>
        call('as.m.assess.comment.updateComment', { optionid: row!.optionid, interpretation: v.interpretation, advice: v.advice })
      }
      invalidates={[LIST]}
      onClose={onClose}
    >
      {row && (
        <Space style={{ marginBottom: 12 }}>
          <LevelTag level={row.level} label={row.label} />
          <Typography.Text type="secondary">
            {k('range')}: {row.min} ~ {row.max}
          </Typography.Text>
        </Space>
      )}
      <Row gutter={16}>
        <Col span={12}>{area(['interpretation', 'zh'], t('common.bracketed', { text: k('interpretation'), detail: t('common.zh') }))}</Col>
        <Col span={12}>{area(['interpretation', 'en'], t('common.bracketed', { text: k('interpretation'), detail: t('common.en') }))}</Col>
        <Col span={12}>{area(['advice', 'zh'], t('common.bracketed', { text: k('advice'), detail: t('common.zh') }))}</Col>
        <Col span={12}>{area(['advice', 'en'], t('common.bracketed', { text: k('advice'), detail: t('common.en') }))}</Col>
      </Row>
    </FormDialog>
  );
}

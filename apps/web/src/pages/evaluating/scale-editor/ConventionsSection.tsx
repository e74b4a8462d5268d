import { Button, Card, Col, Form, Input, Popconfirm, Row, Select, Space, Switch, Tag, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined, StarOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { BandsList, TransformsList } from './IndicatorsSection';
import {
  newConvention,
  newConventionIndicator,
  type ConventionIndicatorValues,
  type ConventionValues,
  type EditorValues,
  type IndicatorValues,
} from './editorState';
import { CodeField } from './CodeField';
import { useFormValue } from './useFormValue';
import { AddRowButton, RemoveRowButton } from '../../../components/form';
import { useT } from '../../../i18n/useT';
import { useLocalText } from '../../../lib/options';


/**
 * Scoring conventions (issue 31 §1): each may replace the conversion and/or bands of some
 * indicators; exactly one is the default (institutions that chose none score with it). The list
 * is edited by index with setFieldValue (as the indicators are) so the nested transform and band
 * lists can be reused with absolute paths.
 */
export default function ConventionsSection({ readOnly }: { readOnly: boolean }) {
  const form = Form.useFormInstance<EditorValues>();
  const count = useFormValue((v) => v.conventions?.length) ?? 0;
  const k = useT('evaluating.editor.conventions');
  const list = () => (form.getFieldValue('conventions') as ConventionValues[] | undefined) ?? [];

  const add = () => {
    const codes = new Set(list().map((c) => c.code));
    let n = 1;
    while (codes.has(`c${n}`)) n++;
    // The first convention of a form is its default.
    form.setFieldValue('conventions', [...list(), newConvention(`c${n}`, list().length === 0)]);
  };
  const remove = (index: number) => {
    const rest = list().filter((_, i) => i !== index);
    // Exactly one default: removing it hands the mark to the first left.
    if (rest.length && !rest.some((c) => c.isDefault)) rest[0] = { ...rest[0], isDefault: true };
    form.setFieldValue('conventions', rest);
  };
  const makeDefault = (index: number) =>
    form.setFieldValue(
      'conventions',
      list().map((c, i) => ({ ...c, isDefault: i === index })),
    );

  return (
    <div className="scale-editor-section" data-testid="conventions-section">
      <Typography.Paragraph type="secondary">{k('intro')}</Typography.Paragraph>
      {count === 0 && <Typography.Text type="secondary">{k('empty')}</Typography.Text>}
      {Array.from({ length: count }, (_, i) => (
        <ConventionCard key={i} index={i} readOnly={readOnly} onRemove={() => remove(i)} onMakeDefault={() => makeDefault(i)} />
      ))}
      {!readOnly && (
        <div>
          <Button icon={<PlusOutlined />} onClick={add} disabled={count >= 10} data-testid="add-convention">
            {k('add')}
          </Button>
        </div>
      )}
    </div>
  );
}

function ConventionCard({ index, readOnly, onRemove, onMakeDefault }: { index: number; readOnly: boolean; onRemove: () => void; onMakeDefault: () => void }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<EditorValues>();
  const k = useT('evaluating.editor.conventions');
  const text = useLocalText();
  const c = useFormValue((v) => v.conventions?.[index]) as ConventionValues | undefined;
  const path = (...rest: (string | number)[]) => ['conventions', index, ...rest] as never;
  const others = () => ((form.getFieldValue('conventions') as ConventionValues[] | undefined) ?? []).filter((_, i) => i !== index);

  const title = (
    <Space>
      <span>{c?.code}</span>
      <Typography.Text type="secondary">{c?.name ? text(c.name) : ''}</Typography.Text>
      {c?.isDefault && <Tag color="blue">{k('defaultTag')}</Tag>}
    </Space>
  );
  const extra = readOnly ? null : (
    <Space size={4}>
      {!c?.isDefault && (
        <Button size="small" type="link" icon={<StarOutlined />} onClick={onMakeDefault} data-testid={`conv${index}-make-default`}>
          {k('makeDefault')}
        </Button>
      )}
      <Popconfirm title={k('removeConfirm', { code: c?.code })} onConfirm={onRemove} okText={t('common.confirm')} cancelText={t('common.cancel')}>
        <Button type="text" danger size="small" icon={<DeleteOutlined />} aria-label={t('common.delete')} data-testid={`conv${index}-remove`} />
      </Popconfirm>
    </Space>
  );

  return (
    <Card size="small" className="indicator-card" title={title} extra={extra} data-testid={`convention-${index}`}>
      <Row gutter={12}>
        <CodeField
          name={path('code')}
          label={k('code')}
          required={k('codeHelp')}
          help={k('codeHelp')}
          rules={[{ validator: async (_, v: string) => (others().some((o) => o.code.trim() === v?.trim()) ? Promise.reject(new Error(k('codeTaken'))) : undefined) }]}
          testId={`conv${index}-code`}
        />
        <Col xs={12} md={7}>
          <Form.Item
            name={path('name', 'zh')}
            label={k('name')}
            rules={[
              { required: true, whitespace: true, message: t('evaluating.editor.required.name') },
              {
                validator: async (_, v: string) =>
                  v?.trim() && others().some((o) => o.name.zh.trim() === v.trim()) ? Promise.reject(new Error(k('nameTaken'))) : undefined,
              },
            ]}
          >
            <Input maxLength={200} data-testid={`conv${index}-name`} />
          </Form.Item>
        </Col>
        <Col xs={12} md={7}>
          <Form.Item name={path('name', 'en')} label={k('nameEn')}>
            <Input maxLength={200} data-testid={`conv${index}-name-en`} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name={path('source')} label={k('source')}>
            <Input maxLength={500} data-testid={`conv${index}-source`} />
          </Form.Item>
        </Col>
      </Row>
      <Replacements index={index} readOnly={readOnly} />
    </Card>
  );
}

/** The indicators a convention replaces, each with its conversion and/or bands. */
function Replacements({ index, readOnly }: { index: number; readOnly: boolean }) {
  const form = Form.useFormInstance<EditorValues>();
  const k = useT('evaluating.editor.conventions');
  const count = useFormValue((v) => v.conventions?.[index]?.indicators?.length) ?? 0;
  const rowsPath = ['conventions', index, 'indicators'] as never;
  const rows = () => (form.getFieldValue(rowsPath) as ConventionIndicatorValues[] | undefined) ?? [];
  const indicators = () => (form.getFieldValue('indicators') as IndicatorValues[] | undefined) ?? [];

  const add = () => {
    const taken = new Set(rows().map((r) => r.code));
    const ind = indicators().find((i) => i.code && !taken.has(i.code));
    // Starts from the indicator's own bands: a convention usually moves a few cut-offs.
    form.setFieldValue(rowsPath, [...rows(), { ...newConventionIndicator(ind?.code ?? null), bands: structuredClone(ind?.bands ?? []) }]);
  };
  const remove = (j: number) =>
    form.setFieldValue(
      rowsPath,
      rows().filter((_, i) => i !== j),
    );

  return (
    <div className="sub-block">
      <div className="sub-title">{k('replaces')}</div>
      {count === 0 && <Typography.Text type="secondary">{k('noIndicators')}</Typography.Text>}
      {Array.from({ length: count }, (_, j) => (
        <ReplacementRow key={j} index={index} row={j} readOnly={readOnly} onRemove={() => remove(j)} />
      ))}
      {!readOnly && (
        <div>
          <AddRowButton onClick={add} data-testid={`conv${index}-add-indicator`}>
            {k('addIndicator')}
          </AddRowButton>
        </div>
      )}
    </div>
  );
}

function ReplacementRow({ index, row, readOnly, onRemove }: { index: number; row: number; readOnly: boolean; onRemove: () => void }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<EditorValues>();
  const k = useT('evaluating.editor.conventions');
  const text = useLocalText();
  const base = ['conventions', index, 'indicators', row];
  const r = useFormValue((v) => v.conventions?.[index]?.indicators?.[row]) as ConventionIndicatorValues | undefined;
  const indicators = (useFormValue((v) => v.indicators) as IndicatorValues[] | undefined) ?? [];
  const options = indicators.filter((i) => i.code).map((i) => ({ value: i.code, label: `${i.code} ${i.name ? text(i.name) : ''}`.trim() }));
  const own = indicators.find((i) => i.code === r?.code);
  const siblings = () =>
    ((form.getFieldValue(['conventions', index, 'indicators'] as never) as ConventionIndicatorValues[] | undefined) ?? []).filter((_, j) => j !== row);

  /** Turning a replacement on starts from the indicator's own conversion or bands. */
  const toggle = (part: 'transforms' | 'bands', on: boolean) => {
    const current = form.getFieldValue(base as never) as ConventionIndicatorValues;
    const flag = part === 'transforms' ? 'replaceTransforms' : 'replaceBands';
    const seeded = on && current[part].length === 0 && own ? structuredClone(own[part]) : current[part];
    form.setFieldValue(base as never, { ...current, [flag]: on, [part]: seeded });
  };

  return (
    <div className="band-row convention-row" data-testid={`conv${index}-ind${row}`}>
      <div className="rule-row">
        <Form.Item
          name={[...base, 'code'] as never}
          label={k('indicator')}
          rules={[
            { required: true, message: t('evaluating.editor.required.indicator') },
            { validator: async (_, v: string | null) => (v && siblings().some((s) => s.code === v) ? Promise.reject(new Error(k('indicatorTaken'))) : undefined) },
          ]}
        >
          <Select options={options} style={{ width: 220 }} data-testid={`conv${index}-ind${row}-code`} />
        </Form.Item>
        <Space size={4}>
          <Switch size="small" checked={!!r?.replaceTransforms} onChange={(on) => toggle('transforms', on)} data-testid={`conv${index}-ind${row}-transforms`} />
          <span className="field-caption">{k('replaceTransforms')}</span>
        </Space>
        <Space size={4}>
          <Switch size="small" checked={!!r?.replaceBands} onChange={(on) => toggle('bands', on)} data-testid={`conv${index}-ind${row}-bands`} />
          <span className="field-caption">{k('replaceBands')}</span>
        </Space>
        {!readOnly && <RemoveRowButton onClick={onRemove} />}
      </div>
      {r?.replaceTransforms ? <TransformsList base={base} readOnly={readOnly} /> : null}
      {r?.replaceBands ? <BandsList base={base} testId={`conv${index}-${row}`} readOnly={readOnly} precision={() => own?.precision ?? 0} /> : null}
      {!r?.replaceTransforms && !r?.replaceBands && <Typography.Text type="secondary">{k('keepsOwn')}</Typography.Text>}
    </div>
  );
}

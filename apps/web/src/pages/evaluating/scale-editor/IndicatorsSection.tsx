import { startTransition, useEffect, useState } from 'react';
import { Button, Card, Col, Empty, Form, Input, InputNumber, Popconfirm, Row, Select, Space, Switch, Tag, Typography } from 'antd';
import { DeleteOutlined, FileTextOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LEVELS, levelColour, useLevelLabel } from '../../../components/levels';
import {
  formatItemList,
  indicatorItems,
  indicatorRawRange,
  newBand,
  newIndicator,
  parseItemList,
  type BandValues,
  type EditorValues,
  type IndicatorValues,
  type QuestionValues,
} from './editorState';
import { CodeField } from './CodeField';
import { useFormValue } from './useFormValue';
import { AddRowButton, RemoveRowButton } from '../../../components/form';
import { useT } from '../../../i18n/useT';

/**
 * Indicator cards drawn at once; the rest follow as many at a time, each step a transition that
 * yields to the browser, so the tab answers while SCL-90's fifteen cards (500 fields) are drawn.
 * Every card is drawn in the end: its fields take part in the check before a save.
 */
const CARDS_PER_STEP = 3;

/** Indicators (total and factor scores) with their formula, transforms and score bands. */
export default function IndicatorsSection({ readOnly }: { readOnly: boolean }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<EditorValues>();
  const count = useFormValue((v) => v.indicators?.length) ?? 0;
  const k = useT('evaluating.editor.indicators');
  const [drawn, setDrawn] = useState(CARDS_PER_STEP);
  useEffect(() => {
    if (drawn < count) startTransition(() => setDrawn(drawn + CARDS_PER_STEP));
  }, [drawn, count]);

  const add = (kind: 'total' | 'factor') => {
    const list = (form.getFieldValue('indicators') as IndicatorValues[]) ?? [];
    const codes = new Set(list.map((i) => i.code));
    const base = kind === 'total' ? 'total' : 'F';
    let n = kind === 'total' && !codes.has('total') ? 0 : 1;
    const codeOf = (i: number) => (i === 0 ? base : `${base}${i}`);
    while (codes.has(codeOf(n))) n++;
    form.setFieldValue('indicators', [...list, newIndicator(kind, codeOf(n))]);
  };

  const remove = (index: number) => {
    const list = (form.getFieldValue('indicators') as IndicatorValues[]) ?? [];
    form.setFieldValue(
      'indicators',
      list.filter((_, i) => i !== index),
    );
  };

  return (
    <div className="scale-editor-section">
      <div className="scale-editor-bar">
        <Typography.Text type="secondary">{t('evaluating.editor.bands.closedRange')}</Typography.Text>
        {!readOnly && (
          <Space>
            <Button icon={<PlusOutlined />} onClick={() => add('total')}>
              {k('addTotal')}
            </Button>
            <Button icon={<PlusOutlined />} onClick={() => add('factor')} data-testid="add-factor">
              {k('addFactor')}
            </Button>
          </Space>
        )}
      </div>
      {count === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k('empty')} />}
      {/* Cards use absolute name paths, so they are not inside a Form.List (whose children get relative names). */}
      {Array.from({ length: Math.min(count, drawn) }, (_, index) => (
        <IndicatorCard key={index} index={index} readOnly={readOnly} onRemove={() => remove(index)} />
      ))}
    </div>
  );
}

function IndicatorCard({ index, readOnly, onRemove }: { index: number; readOnly: boolean; onRemove: () => void }) {
  const { t } = useTranslation();
  const ind = useFormValue((v) => v.indicators?.[index]) as IndicatorValues | undefined;
  // What scoring needs of the items (not their texts), so typing an item text does not re-render this card.
  const questions = useFormValue((v) => v.questions?.map(scoringShape));
  const k = useT('evaluating.editor.indicators');
  const path = (...rest: (string | number)[]) => ['indicators', index, ...rest];
  const formulaOptions = (['sum', 'mean', 'weightedSum', 'countAtLeast', 'countBelow', 'meanAtLeast'] as const).map((op) => ({ value: op, label: k(`formulas.${op}`) }));
  const kindTag = ind?.kind === 'factor' ? <Tag color="blue">{k('factor')}</Tag> : <Tag color="green">{k('total')}</Tag>;
  const resolved = ind && questions ? indicatorItems({ questions }, ind) : null;
  const range = ind && questions ? indicatorRawRange({ questions }, ind) : null;

  const title = (
    <Space>
      {kindTag}
      <span>{ind?.code}</span>
      <Typography.Text type="secondary">{ind?.name?.zh}</Typography.Text>
    </Space>
  );
  const extra = readOnly ? null : (
    <Popconfirm
      title={k('deleteConfirm', { code: ind?.code })}
      onConfirm={onRemove}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
    >
      <Button type="text" danger size="small" icon={<DeleteOutlined />} aria-label={t('common.delete')} />
    </Popconfirm>
  );

  return (
    <Card size="small" className="indicator-card" title={title} extra={extra} data-testid={`indicator-${index}`}>
      <Row gutter={12}>
        <CodeField name={path('code')} label={k('code')} required={t('evaluating.editor.required.code')} help={k('codeHelp')} testId={`ind${index}-code`} />
        <Col xs={12} md={4}>
          <Form.Item name={path('kind')} label={k('kind')}>
            <Select
              options={[
                { value: 'total', label: k('total') },
                { value: 'factor', label: k('factor') },
              ]}
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item
            name={path('name', 'zh')}
            label={k('name')}
            rules={[{ required: true, whitespace: true, message: t('evaluating.editor.required.name') }]}
          >
            <Input maxLength={100} data-testid={`ind${index}-name`} />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name={path('name', 'en')} label={k('nameEn')}>
            <Input maxLength={100} />
          </Form.Item>
        </Col>
        <Col xs={24} md={10}>
          <Form.Item
            name={path('items')}
            label={k('items')}
            rules={[
              {
                validator: async (_, v: string) =>
                  !v?.trim() || parseItemList(v) ? undefined : Promise.reject(new Error(k('itemsInvalid'))),
              },
            ]}
            extra={resolved ? (resolved.length ? k('resolved', { items: formatItemList(resolved) }) : k('resolvedNone')) : undefined}
          >
            <Input
              placeholder={ind?.kind === 'factor' ? k('itemsPlaceholderFactor') : k('itemsPlaceholderTotal')}
              data-testid={`ind${index}-items`}
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name={path('formula')} label={k('formula')}>
            <Select options={formulaOptions} />
          </Form.Item>
        </Col>
        {(ind?.formula === 'countAtLeast' || ind?.formula === 'countBelow' || ind?.formula === 'meanAtLeast') && (
          <Col xs={12} md={4}>
            <Form.Item
              name={path('countValue')}
              label={k('countValue')}
              rules={[{ required: true, message: t('evaluating.editor.required.countValue') }]}
            >
              <InputNumber style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        )}
        <Col xs={12} md={4}>
          <Form.Item name={path('precision')} label={k('precision')}>
            <InputNumber min={0} max={4} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      {ind?.formula === 'weightedSum' && <WeightsList index={index} readOnly={readOnly} />}
      <TransformsList base={['indicators', index]} readOnly={readOnly} />
      <BandsList
        base={['indicators', index]}
        testId={`ind${index}`}
        readOnly={readOnly}
        rangeHint={range ? k('rawRange', { min: round(range.min), max: round(range.max) }) : undefined}
      />
    </Card>
  );
}

/** The parts of an item that decide which items an indicator reads and what they can score. */
const scoringShape = (q: QuestionValues): QuestionValues => ({
  ...q,
  text: { zh: '', en: '' },
  options: (q.options ?? []).map((o) => ({ text: { zh: '', en: '' }, score: o.score })),
});

const round = (x: number) => Math.round(x * 100) / 100;

function WeightsList({ index, readOnly }: { index: number; readOnly: boolean }) {
  const k = useT('evaluating.editor.indicators');
  return (
    <Form.List name={['indicators', index, 'weights']}>
      {(fields, { add, remove }) => (
        <div className="sub-block">
          <div className="sub-title">{k('weights')}</div>
          <Space wrap>
            {fields.map((f) => (
              <Space.Compact key={f.key}>
                <Form.Item name={[f.name, 'no']} noStyle>
                  <InputNumber min={1} precision={0} placeholder={k('weightNo')} style={{ width: 80 }} />
                </Form.Item>
                <Form.Item name={[f.name, 'weight']} noStyle>
                  <InputNumber placeholder={k('weight')} style={{ width: 90 }} />
                </Form.Item>
                {!readOnly && <RemoveRowButton type="default" onClick={() => remove(f.name)} />}
              </Space.Compact>
            ))}
            {!readOnly && <AddRowButton onClick={() => add({ no: null, weight: 1 })}>{k('addWeight')}</AddRowButton>}
          </Space>
        </div>
      )}
    </Form.List>
  );
}

/** Where a transforms/bands list lives: an indicator (['indicators', i]) or a convention's replacement (['conventions', c, 'indicators', j]). */
export type ListBase = (string | number)[];

/** The value at a path of the editor's values. */
const at = (v: unknown, path: ListBase): unknown => path.reduce<unknown>((o, k) => (o as Record<string | number, unknown> | undefined)?.[k], v);

export function TransformsList({ base, readOnly }: { base: ListBase; readOnly: boolean }) {
  const transforms = useFormValue((v) => (at(v, base) as { transforms?: IndicatorValues['transforms'] } | undefined)?.transforms);
  const k = useT('evaluating.editor.indicators');
  const ops = (['linear', 'int', 'round'] as const).map((op) => ({ value: op, label: k(`transformOps.${op}`) }));
  if (readOnly && !transforms?.length) return null;
  return (
    <Form.List name={[...base, 'transforms']}>
      {(fields, { add, remove }) => (
        <div className="sub-block">
          <div className="sub-title">{k('transforms')}</div>
          <Space wrap>
            {fields.map((f, i) => (
              <Space.Compact key={f.key}>
                <Form.Item name={[f.name, 'op']} noStyle>
                  <Select options={ops} style={{ width: 130 }} />
                </Form.Item>
                {transforms?.[i]?.op === 'linear' && (
                  <>
                    <Form.Item name={[f.name, 'a']} noStyle>
                      <InputNumber placeholder={k('a')} style={{ width: 80 }} />
                    </Form.Item>
                    <Form.Item name={[f.name, 'b']} noStyle>
                      <InputNumber placeholder={k('b')} style={{ width: 80 }} />
                    </Form.Item>
                  </>
                )}
                {transforms?.[i]?.op === 'round' && (
                  <Form.Item name={[f.name, 'digits']} noStyle>
                    <InputNumber min={0} max={6} precision={0} placeholder={k('digits')} style={{ width: 80 }} />
                  </Form.Item>
                )}
                {!readOnly && <RemoveRowButton type="default" onClick={() => remove(f.name)} />}
              </Space.Compact>
            ))}
            {!readOnly && (
              <AddRowButton onClick={() => add({ op: 'linear', a: 1.25, b: 0, digits: null })}>{k('addTransform')}</AddRowButton>
            )}
          </Space>
        </div>
      )}
    </Form.List>
  );
}

/** Level picker showing the five-level colour beside each level's name. */
export function LevelSelect(props: { value?: number; onChange?: (v: number) => void; disabled?: boolean; 'data-testid'?: string }) {
  const levelLabel = useLevelLabel();
  return (
    <Select
      {...props}
      style={{ width: 190 }}
      options={LEVELS.map((l) => ({
        value: l,
        label: (
          <span className="level-option">
            <span className="level-swatch" style={{ background: levelColour(l) }} />
            {l} · {levelLabel(l)}
          </span>
        ),
      }))}
    />
  );
}

/**
 * Score bands. `precision` is the indicator's (a convention's bands follow the indicator they
 * replace); `testId` prefixes the test ids (`ind0`, `conv1-0`).
 */
export function BandsList({
  base,
  testId,
  readOnly,
  rangeHint,
  precision,
}: {
  base: ListBase;
  testId: string;
  readOnly: boolean;
  rangeHint?: string;
  precision?: () => number;
}) {
  const { t } = useTranslation();
  const bands = useFormValue((v) => (at(v, base) as { bands?: BandValues[] } | undefined)?.bands);
  const form = Form.useFormInstance<EditorValues>();
  const [open, setOpen] = useState<Set<number>>(new Set());
  const k = useT('evaluating.editor.bands');
  const toggle = (i: number) => setOpen((s) => (s.has(i) ? new Set([...s].filter((x) => x !== i)) : new Set(s).add(i)));

  const addBand = (add: (v: BandValues) => void) => {
    // Read the form, not the watched copy, so a value typed just before the click counts.
    const current = (form.getFieldValue(base as never) as Partial<IndicatorValues> | undefined) ?? {};
    const list = current.bands ?? [];
    const last = list[list.length - 1];
    // Consecutive bands meet exactly: the next starts one step (at the indicator's precision) above the last.
    const step = 10 ** -(precision ? precision() : (current.precision ?? 0));
    const min = !last ? 0 : last.max !== null && last.max !== undefined ? Math.round((last.max + step) * 1e6) / 1e6 : null;
    add(newBand(Math.min(4, (last?.level ?? -1) + 1), min, null));
  };

  return (
    <Form.List name={[...base, 'bands']}>
      {(fields, { add, remove }) => (
        <div className="sub-block bands">
          <div className="sub-title">
            {k('title')}
            {rangeHint && <span className="range-hint">{rangeHint}</span>}
          </div>
          {fields.length === 0 && <Typography.Text type="secondary">{k('empty')}</Typography.Text>}
          {fields.map((f, i) => {
            const band = bands?.[i];
            return (
              <div
                key={f.key}
                className="band-row"
                style={{ borderInlineStartColor: band?.colour || levelColour(band?.level) }}
                data-testid={`${testId}-band${i}`}
              >
                <div className="band-main">
                  <Space.Compact>
                    <Form.Item name={[f.name, 'min']} noStyle rules={[{ required: true, message: t('evaluating.editor.required.min') }]}>
                      <InputNumber
                        placeholder={k('min')}
                        style={{ width: 90 }}
                        aria-label={k('min')}
                        data-testid={`${testId}-band${i}-min`}
                      />
                    </Form.Item>
                    <span className="band-dash">~</span>
                    <Form.Item name={[f.name, 'max']} noStyle rules={[{ required: true, message: t('evaluating.editor.required.max') }]}>
                      <InputNumber
                        placeholder={k('max')}
                        style={{ width: 90 }}
                        aria-label={k('max')}
                        data-testid={`${testId}-band${i}-max`}
                      />
                    </Form.Item>
                  </Space.Compact>
                  <Form.Item name={[f.name, 'level']} noStyle>
                    <LevelSelect data-testid={`${testId}-band${i}-level`} />
                  </Form.Item>
                  <Form.Item
                    name={[f.name, 'label', 'zh']}
                    noStyle
                    rules={[{ required: true, whitespace: true, message: t('evaluating.editor.required.label') }]}
                  >
                    <Input placeholder={k('label')} className="band-label" maxLength={100} data-testid={`${testId}-band${i}-label`} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'label', 'en']} noStyle>
                    <Input placeholder={k('labelEn')} className="band-label" maxLength={100} data-testid={`${testId}-band${i}-label-en`} />
                  </Form.Item>
                  <Space size={4}>
                    <span className="field-caption">{k('raisesWarning')}</span>
                    <Form.Item name={[f.name, 'raisesWarning']} valuePropName="checked" noStyle>
                      <Switch size="small" data-testid={`${testId}-band${i}-warning`} />
                    </Form.Item>
                  </Space>
                  <Button type="link" size="small" icon={<FileTextOutlined />} onClick={() => toggle(i)}>
                    {k('details')}
                  </Button>
                  {!readOnly && <RemoveRowButton onClick={() => remove(f.name)} />}
                </div>
                <div className="band-texts" hidden={!open.has(i)}>
                  <Form.Item name={[f.name, 'interpretation', 'zh']} label={t('common.bracketed', { text: k('interpretation'), detail: t('common.zh') })}>
                    <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={4000} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'interpretation', 'en']} label={t('common.bracketed', { text: k('interpretation'), detail: t('common.en') })}>
                    <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={4000} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'advice', 'zh']} label={t('common.bracketed', { text: k('advice'), detail: t('common.zh') })}>
                    <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={4000} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'advice', 'en']} label={t('common.bracketed', { text: k('advice'), detail: t('common.en') })}>
                    <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={4000} />
                  </Form.Item>
                </div>
              </div>
            );
          })}
          {!readOnly && (
            <Button
              size="small"
              type="dashed"
              icon={<PlusOutlined />}
              onClick={() => addBand(add)}
              disabled={fields.length >= 20}
              data-testid={`${testId}-add-band`}
            >
              {k('add')}
            </Button>
          )}
        </div>
      )}
    </Form.List>
  );
}

import { Card, Form, Input, InputNumber, Select, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MentalState } from '@xinli/contract';
import { LEVELS, useLevelLabel } from '../../../components/levels';
import { useEnumOptions, useLocalText } from '../../../lib/options';
import { LevelSelect } from './IndicatorsSection';
import {
  isChoice,
  newCritical,
  newScreening,
  newValidity,
  type CriticalValues,
  type IndicatorValues,
  type QuestionValues,
  type ScreeningValues,
} from './editorState';
import { useFormValue } from './useFormValue';
import { AddRowButton, RemoveRowButton } from '../../../components/form';
import { useT } from '../../../i18n/useT';

/** Critical items, validity rules and the overall mental-state rule. */
export default function RulesSection({ readOnly }: { readOnly: boolean }) {
  return (
    <div className="scale-editor-section">
      <CriticalList readOnly={readOnly} />
      <ValidityList readOnly={readOnly} />
      <ScreeningList readOnly={readOnly} />
      <MentalStateRule />
    </div>
  );
}

const excerpt = (text: string | undefined, max = 28) => {
  const s = (text ?? '').trim();
  return s.length > max ? `${s.slice(0, max)}…` : s;
};

function CriticalList({ readOnly }: { readOnly: boolean }) {
  const { t } = useTranslation();
  const questions = (useFormValue((v) => v.questions) as QuestionValues[] | undefined) ?? [];
  const rules = (useFormValue((v) => v.critical) as CriticalValues[] | undefined) ?? [];
  const k = useT('evaluating.editor.critical');
  const local = useLocalText();
  const questionOptions = questions.map((q, i) => ({ value: i + 1, label: `${i + 1}. ${excerpt(local(q.text))}` }));

  return (
    <Card size="small" title={k('title')} className="rules-card">
      <Typography.Paragraph type="secondary">{k('intro')}</Typography.Paragraph>
      <Form.List name="critical">
        {(fields, { add, remove }) => (
          <>
            {fields.length === 0 && <Typography.Text type="secondary">{k('empty')}</Typography.Text>}
            {fields.map((f, i) => {
              const q = rules[i]?.no ? questions[rules[i].no! - 1] : undefined;
              const positions =
                q && isChoice(q)
                  ? q.options.map((o, p) => ({ value: p + 1, label: `${String.fromCharCode(65 + p)}. ${excerpt(local(o.text), 16)}` }))
                  : [];
              return (
                <div className="rule-row" key={f.key} data-testid={`critical-${i}`}>
                  <Form.Item
                    name={[f.name, 'no']}
                    label={k('question')}
                    rules={[{ required: true, message: t('evaluating.editor.required.question') }]}
                  >
                    <Select
                      options={questionOptions}
                      style={{ width: 260 }}
                      showSearch={{ optionFilterProp: 'label' }}
                      data-testid={`critical-${i}-no`}
                    />
                  </Form.Item>
                  <Form.Item name={[f.name, 'minScore']} label={k('minScore')}>
                    <InputNumber style={{ width: 90 }} data-testid={`critical-${i}-min`} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'options']} label={k('options')}>
                    <Select mode="multiple" options={positions} style={{ minWidth: 180 }} disabled={positions.length === 0} />
                  </Form.Item>
                  <TextPair
                    name={[f.name, 'reason']}
                    label={k('reason')}
                    labelEn={k('reasonEn')}
                    required={t('evaluating.editor.required.reason')}
                    testId={`critical-${i}-reason`}
                  />
                  <Form.Item name={[f.name, 'source']} label={t('evaluating.editor.screening.source')} className="grow">
                    <Input maxLength={500} />
                  </Form.Item>
                  {!readOnly && <RemoveRowButton onClick={() => remove(f.name)} />}
                </div>
              );
            })}
            {!readOnly && (
              <div>
                <AddRowButton onClick={() => add(newCritical())} data-testid="add-critical">
                  {k('add')}
                </AddRowButton>
              </div>
            )}
          </>
        )}
      </Form.List>
    </Card>
  );
}

/** A rule's or condition's indicator, chosen from the form's indicators; required. */
function IndicatorField({ name, label }: { name: (string | number)[]; label: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item name={name} label={label} rules={[{ required: true, message: t('evaluating.editor.required.indicator') }]}>
      <Select options={useIndicatorOptions()} style={{ width: 200 }} />
    </Form.Item>
  );
}

function useIndicatorOptions() {
  const indicators = (useFormValue((v) => v.indicators) as IndicatorValues[] | undefined) ?? [];
  return indicators.filter((i) => i.code).map((i) => ({ value: i.code, label: `${i.code} ${i.name?.zh ?? ''}`.trim() }));
}

function ValidityList({ readOnly }: { readOnly: boolean }) {
  const { t } = useTranslation();
  const k = useT('evaluating.editor.validity');
  return (
    <Card size="small" title={k('title')} className="rules-card">
      <Typography.Paragraph type="secondary">{k('intro')}</Typography.Paragraph>
      <Form.List name="validity">
        {(fields, { add, remove }) => (
          <>
            {fields.length === 0 && <Typography.Text type="secondary">{k('empty')}</Typography.Text>}
            {fields.map((f) => (
              <div className="rule-row" key={f.key}>
                <IndicatorField name={[f.name, 'indicator']} label={k('indicator')} />
                <Form.Item name={[f.name, 'op']} label={k('op')}>
                  <Select
                    style={{ width: 70 }}
                    options={[
                      { value: 'gte', label: k('gte') },
                      { value: 'lte', label: k('lte') },
                    ]}
                  />
                </Form.Item>
                <Form.Item
                  name={[f.name, 'value']}
                  label={k('value')}
                  rules={[{ required: true, message: t('evaluating.editor.required.value') }]}
                >
                  <InputNumber style={{ width: 90 }} />
                </Form.Item>
                <TextPair
                  name={[f.name, 'message']}
                  label={k('message')}
                  labelEn={k('messageEn')}
                  required={t('evaluating.editor.required.message')}
                />
                {!readOnly && <RemoveRowButton onClick={() => remove(f.name)} />}
              </div>
            ))}
            {!readOnly && (
              <div>
                <AddRowButton onClick={() => add(newValidity())}>{k('add')}</AddRowButton>
              </div>
            )}
          </>
        )}
      </Form.List>
    </Card>
  );
}

/**
 * Screening rules (issue 31 §1): a sheet is positive when any condition holds (an indicator, or any
 * factor, above or at a value) and raises a warning of the rule's level, e.g. the SCL-90 Chinese rule.
 */
function ScreeningList({ readOnly }: { readOnly: boolean }) {
  const { t } = useTranslation();
  const k = useT('evaluating.editor.screening');
  const rules = (useFormValue((v) => v.screening) as ScreeningValues[] | undefined) ?? [];
  return (
    <Card size="small" title={k('title')} className="rules-card" data-testid="screening-rules">
      <Typography.Paragraph type="secondary">{k('intro')}</Typography.Paragraph>
      <Form.List name="screening">
        {(fields, { add, remove }) => (
          <>
            {fields.length === 0 && <Typography.Text type="secondary">{k('empty')}</Typography.Text>}
            {fields.map((f, i) => (
              <div key={f.key} className="screening-rule" data-testid={`screening-${i}`}>
                <div className="rule-row">
                  <TextPair name={[f.name, 'name']} label={k('name')} labelEn={k('nameEn')} required={t('evaluating.editor.required.reason')} />
                  <Form.Item name={[f.name, 'level']} label={k('level')}>
                    <Select
                      style={{ width: 110 }}
                      options={[
                        { value: 'attention', label: k('attention') },
                        { value: 'critical', label: k('critical') },
                      ]}
                    />
                  </Form.Item>
                  {!readOnly && <RemoveRowButton onClick={() => remove(f.name)} />}
                </div>
                <Form.List name={[f.name, 'conditions']}>
                  {(conds, c) => (
                    <>
                      {conds.map((cf, j) => (
                        <div className="rule-row" key={cf.key}>
                          <Typography.Text type="secondary">{j === 0 ? k('when') : k('or')}</Typography.Text>
                          <Form.Item name={[cf.name, 'kind']} label={k('kind')}>
                            <Select
                              style={{ width: 160 }}
                              options={[
                                { value: 'indicator', label: k('kindIndicator') },
                                { value: 'anyFactor', label: k('kindAnyFactor') },
                              ]}
                            />
                          </Form.Item>
                          {rules[i]?.conditions?.[j]?.kind !== 'anyFactor' && (
                            <IndicatorField name={[cf.name, 'indicator']} label={k('indicator')} />
                          )}
                          <Form.Item name={[cf.name, 'op']} label={k('op')}>
                            <Select
                              style={{ width: 70 }}
                              options={[
                                { value: 'gt', label: '>' },
                                { value: 'gte', label: '≥' },
                              ]}
                            />
                          </Form.Item>
                          <Form.Item
                            name={[cf.name, 'value']}
                            label={k('value')}
                            rules={[{ required: true, message: t('evaluating.editor.required.value') }]}
                          >
                            <InputNumber style={{ width: 90 }} />
                          </Form.Item>
                          {!readOnly && conds.length > 1 && <RemoveRowButton onClick={() => c.remove(cf.name)} />}
                        </div>
                      ))}
                      {!readOnly && (
                        <div>
                          <AddRowButton onClick={() => c.add({ kind: 'indicator', indicator: null, op: 'gte', value: null })}>{k('addCondition')}</AddRowButton>
                        </div>
                      )}
                    </>
                  )}
                </Form.List>
                <div className="rule-row">
                  <TextPair name={[f.name, 'reason']} label={k('reason')} labelEn={k('reasonEn')} required={t('evaluating.editor.required.reason')} />
                  <Form.Item name={[f.name, 'source']} label={k('source')} className="grow">
                    <Input maxLength={500} />
                  </Form.Item>
                </div>
              </div>
            ))}
            {!readOnly && (
              <div>
                <AddRowButton onClick={() => add(newScreening())} data-testid="add-screening">
                  {k('add')}
                </AddRowButton>
              </div>
            )}
          </>
        )}
      </Form.List>
    </Card>
  );
}

function MentalStateRule() {
  const { t } = useTranslation();
  const on = useFormValue((v) => v.mentalStateOn) as boolean | undefined;
  const indicatorOptions = useIndicatorOptions();
  const states = useEnumOptions(MentalState);
  const levelLabel = useLevelLabel();
  const k = useT('evaluating.editor.mentalState');
  return (
    <Card size="small" title={k('title')} className="rules-card">
      <Space align="center" style={{ marginBottom: 12 }}>
        <Form.Item name="mentalStateOn" valuePropName="checked" noStyle>
          <Switch />
        </Form.Item>
        <span>{k('on')}</span>
      </Space>
      {on && (
        <>
          <Typography.Paragraph type="secondary">{k('intro')}</Typography.Paragraph>
          <Form.Item
            name="mentalStateIndicators"
            label={k('indicators')}
            rules={[{ required: true, message: t('evaluating.editor.required.indicators') }]}
          >
            <Select mode="multiple" options={indicatorOptions} style={{ maxWidth: 520 }} />
          </Form.Item>
          <div className="level-map">
            {LEVELS.map((level) => (
              <div className="level-map-item" key={level}>
                <LevelSelect value={level} disabled />
                <span className="level-map-arrow">→</span>
                <Form.Item name={['levelToState', level]} noStyle>
                  <Select options={states} style={{ width: 240 }} aria-label={`${levelLabel(level)}`} />
                </Form.Item>
              </div>
            ))}
          </div>
        </>
      )}
    </Card>
  );
}

/** A rule's text in Chinese (required: respondents and staff read it) and English (optional). */
function TextPair({
  name,
  label,
  labelEn,
  required,
  testId,
}: {
  name: [number, string];
  label: string;
  labelEn: string;
  required: string;
  testId?: string;
}) {
  return (
    <>
      <Form.Item name={[...name, 'zh']} label={label} rules={[{ required: true, whitespace: true, message: required }]} className="grow">
        <Input maxLength={500} data-testid={testId} />
      </Form.Item>
      <Form.Item name={[...name, 'en']} label={labelEn} className="grow">
        <Input maxLength={500} />
      </Form.Item>
    </>
  );
}

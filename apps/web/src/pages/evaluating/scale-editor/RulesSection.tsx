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
import { RemoveRowButton, RowList, type RowListProps } from '../../../components/form';
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

/** A card of rules: its title, what the rules do, and their rows. */
function RulesCard({
  k,
  testId,
  ...list
}: { k: (key: 'title' | 'intro' | 'empty' | 'add') => string; testId?: string } & Omit<RowListProps, 'empty' | 'addLabel'>) {
  return (
    <Card size="small" title={k('title')} className="rules-card" data-testid={testId}>
      <Typography.Paragraph type="secondary">{k('intro')}</Typography.Paragraph>
      <RowList empty={k('empty')} addLabel={k('add')} {...list} />
    </Card>
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
    <RulesCard
      k={k}
      name="critical"
      newRow={newCritical}
      readOnly={readOnly}
      addTestId="add-critical"
      row={(f, i, remove) => {
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
      }}
    />
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

/** A rule's operator and the value it compares with (required). */
function Comparison({
  name,
  label,
  ops,
}: {
  name: number;
  label: (key: 'op' | 'value') => string;
  ops: { value: string; label: string }[];
}) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name={[name, 'op']} label={label('op')}>
        <Select style={{ width: 70 }} options={ops} />
      </Form.Item>
      <Form.Item name={[name, 'value']} label={label('value')} rules={[{ required: true, message: t('evaluating.editor.required.value') }]}>
        <InputNumber style={{ width: 90 }} />
      </Form.Item>
    </>
  );
}

function useIndicatorOptions() {
  const indicators = (useFormValue((v) => v.indicators) as IndicatorValues[] | undefined) ?? [];
  const local = useLocalText();
  // Named in the page's language (an English console showed "TOTAL 总分").
  return indicators.filter((i) => i.code).map((i) => ({ value: i.code, label: `${i.code} ${local(i.name)}`.trim() }));
}

function ValidityList({ readOnly }: { readOnly: boolean }) {
  const { t } = useTranslation();
  const k = useT('evaluating.editor.validity');
  return (
    <RulesCard
      k={k}
      name="validity"
      newRow={newValidity}
      readOnly={readOnly}
      row={(f, _, remove) => (
        <div className="rule-row" key={f.key}>
          <IndicatorField name={[f.name, 'indicator']} label={k('indicator')} />
          <Comparison
            name={f.name}
            label={k}
            ops={[
              { value: 'gte', label: k('gte') },
              { value: 'lte', label: k('lte') },
            ]}
          />
          <TextPair
            name={[f.name, 'message']}
            label={k('message')}
            labelEn={k('messageEn')}
            required={t('evaluating.editor.required.message')}
          />
          {!readOnly && <RemoveRowButton onClick={() => remove(f.name)} />}
        </div>
      )}
    />
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
    <RulesCard
      k={k}
      testId="screening-rules"
      name="screening"
      newRow={newScreening}
      readOnly={readOnly}
      addTestId="add-screening"
      row={(f, i, remove) => (
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
          <RowList
            name={[f.name, 'conditions']}
            addLabel={k('addCondition')}
            newRow={() => ({ kind: 'indicator', indicator: null, op: 'gte', value: null })}
            readOnly={readOnly}
            row={(cf, j, removeCondition, count) => (
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
                {rules[i]?.conditions?.[j]?.kind !== 'anyFactor' && <IndicatorField name={[cf.name, 'indicator']} label={k('indicator')} />}
                <Comparison
                  name={cf.name}
                  label={k}
                  ops={[
                    { value: 'gt', label: '>' },
                    { value: 'gte', label: '≥' },
                  ]}
                />
                {!readOnly && count > 1 && <RemoveRowButton onClick={() => removeCondition(cf.name)} />}
              </div>
            )}
          />
          <div className="rule-row">
            <TextPair
              name={[f.name, 'reason']}
              label={k('reason')}
              labelEn={k('reasonEn')}
              required={t('evaluating.editor.required.reason')}
            />
            <Form.Item name={[f.name, 'source']} label={k('source')} className="grow">
              <Input maxLength={500} />
            </Form.Item>
          </div>
        </div>
      )}
    />
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

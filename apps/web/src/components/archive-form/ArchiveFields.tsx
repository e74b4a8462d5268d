/**
 * The fields of a user-archive form (form type 02), one per question, as antd Form items under
 * `name` (default `archive`): single and multiple choice, and fill-ins by input type (SPEC §3):
 * 0 text, 1 integer, 2 decimal, 3 date, 4 time, 5 date+time, 6 time range, 7 number picker,
 * 8 province/city/district. Values convert to the answer format with `valuesToAnswers`.
 * Used by the person dialog; the respondent page has its own mobile widgets over the same values.
 */
import { Checkbox, DatePicker, Form, Input, InputNumber, Radio, Select, TimePicker } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { useLocalText } from '../../lib/options';
import { RegionField } from './RegionField';
import { DATE, DATE_TIME, TIME, type ArchiveField } from './values';

const TEXT_MAX = 500;

export interface ArchiveFieldsProps {
  /** The questions of the app's archive form (the archive columns). */
  fields: ArchiveField[];
  /** The form field the values live under. */
  name?: string;
}

export default function ArchiveFields({ fields, name = 'archive' }: ArchiveFieldsProps) {
  const { t } = useTranslation();
  const text = useLocalText();
  const sorted = [...fields].sort((a, b) => a.no - b.no);
  return (
    <>
      {sorted.map((q) => {
        const label = text(q.title);
        const rules: Rule[] = [];
        // A typed fill-in asks to fill in; a choice, date, time or region asks to choose.
        const typed = q.type === 0 && [0, 1, 2, 7].includes(q.inputtype ?? 0);
        if (q.required) rules.push({ required: true, message: t(typed ? 'archives.form.required' : 'common.rule.choose', { field: label }) });
        if (q.type === 0 && q.range && [1, 2, 7].includes(q.inputtype ?? 0)) {
          const { min, max } = q.range;
          rules.push({ type: 'number', min, max, message: t('archives.form.range', { field: label, min, max }) });
        }
        // The server's limit of a text answer (persons/archive.ts), checked rather than cut.
        if (q.type === 0 && (q.inputtype ?? 0) === 0) rules.push({ type: 'string', max: TEXT_MAX, message: t('common.rule.max', { field: label, max: TEXT_MAX }) });
        return (
          <Form.Item key={q.no} name={[name, String(q.no)]} label={label} rules={rules} validateFirst data-testid={`archive-q${q.no}`}>
            {control(q, text, t)}
          </Form.Item>
        );
      })}
    </>
  );
}

/** The widget of one question. */
function control(q: ArchiveField, text: (t: { zh: string; en: string }) => string, t: (k: string) => string) {
  const options = q.options.map((o, i) => ({ value: i + 1, label: text(o) }));
  // Long option lists read better in a drop-down than as a row of radios.
  if (q.type === 1)
    return options.length > 6 ? (
      <Select allowClear options={options} placeholder={t('archives.form.choose')} />
    ) : (
      <Radio.Group options={options} />
    );
  if (q.type === 2) return <Checkbox.Group options={options} />;
  // The range is said (placeholder) and checked (the rule), never given to InputNumber as
  // min/max: it would turn 99 weeks into 45 on blur without a word.
  const range = q.range ? `${q.range.min}–${q.range.max}` : undefined;
  switch (q.inputtype ?? 0) {
    case 1:
      return <InputNumber precision={0} placeholder={range} style={{ width: 200 }} />;
    case 2:
      return <InputNumber step={0.1} placeholder={range} style={{ width: 200 }} />;
    case 3:
      return <DatePicker format={DATE} style={{ width: 200 }} />;
    case 4:
      return <TimePicker format={TIME} style={{ width: 200 }} />;
    case 5:
      return <DatePicker showTime={{ format: TIME }} format={DATE_TIME} style={{ width: 220 }} />;
    case 6:
      return <TimePicker.RangePicker format={TIME} style={{ width: 260 }} />;
    case 7:
      return <InputNumber precision={0} placeholder={range} controls mode="spinner" style={{ width: 200 }} />;
    case 8:
      return <RegionField />;
    default:
      return <Input />;
  }
}

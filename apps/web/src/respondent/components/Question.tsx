import { useId, type ReactNode } from 'react';
import type { AnswerInput } from '@xinli/contract';
import { local, t } from '../i18n';
import type { RQuestion } from '../answers';
import { RegionSelect } from './RegionSelect';

interface Props {
  question: RQuestion;
  value: AnswerInput | undefined;
  onChange: (a: AnswerInput) => void;
  invalid: boolean;
  errorId: string;
}

/**
 * One question on its own screen. Choices are native radio buttons / check boxes inside big
 * labelled cards (the whole card is the touch target; arrow keys move between radios); fill-ins
 * use the phone's own pickers for dates and times.
 */
export function Question(props: Props) {
  const { question } = props;
  if (question.type === 0) return <FillIn {...props} />;
  const multiple = question.type === 2;
  const chosen = new Set(multiple ? (props.value?.options ?? []) : props.value?.option ? [props.value.option] : []);
  const toggle = (pos: number) => {
    if (!multiple) return props.onChange({ no: question.no, option: pos });
    const next = new Set(chosen);
    if (next.has(pos)) next.delete(pos);
    else next.add(pos);
    props.onChange({ no: question.no, options: [...next].sort((a, b) => a - b) });
  };
  return (
    <fieldset className="r-question" aria-describedby={props.invalid ? props.errorId : undefined} data-testid="r-question">
      <legend>{local(question.text)}</legend>
      <span className="r-hint">
        {multiple ? t('question.chooseMany') : t('question.choose')}
        {!question.required && ` ${t('question.optional')}`}
      </span>
      {question.options.map((o, i) => (
        <label className="r-choice" key={i}>
          <input
            type={multiple ? 'checkbox' : 'radio'}
            name={`q${question.no}`}
            checked={chosen.has(i + 1)}
            onChange={() => toggle(i + 1)}
            data-testid={`r-option-${i + 1}`}
          />
          <span>{local(o.text)}</span>
        </label>
      ))}
    </fieldset>
  );
}

function FillIn({ question, value, onChange, invalid, errorId }: Props) {
  const id = useId();
  const text = value?.text ?? '';
  const set = (next: string) => onChange({ no: question.no, text: next });
  const common = {
    className: 'r-input',
    'aria-invalid': invalid,
    'aria-describedby': invalid ? errorId : undefined,
    'data-testid': 'r-fill',
  } as const;
  const type = question.inputtype ?? 0;
  const label = (
    <>
      <label className="r-label r-question-text" htmlFor={id}>
        {local(question.text)}
      </label>
      {!question.required && <span className="r-hint">{t('question.optional')}</span>}
    </>
  );
  // A plain fill-in: the question as the label, a hint, then the control.
  const field = (control: ReactNode, hint?: ReactNode) => (
    <div className="r-field">
      {label}
      {hint}
      {control}
    </div>
  );
  switch (type) {
    case 1:
    case 2:
      return field(
        <input
          id={id}
          {...common}
          type="text"
          inputMode={type === 1 ? 'numeric' : 'decimal'}
          value={text}
          onChange={(e) => set(e.target.value)}
        />,
        question.range && <span className="r-hint">{`${question.range.min} – ${question.range.max}`}</span>,
      );
    case 3:
    case 4:
      return field(<input id={id} {...common} type={type === 3 ? 'date' : 'time'} value={text} onChange={(e) => set(e.target.value)} />);
    case 5:
      return field(
        <input
          id={id}
          {...common}
          type="datetime-local"
          value={text.replace(' ', 'T')}
          onChange={(e) => set(e.target.value.replace('T', ' '))}
        />,
      );
    case 6:
      return <TimeRange {...{ question, text, set, invalid, errorId }} />;
    case 7:
      return <NumberPicker {...{ question, text, set, invalid, errorId, id }} label={label} />;
    case 8:
      return <RegionSelect legend={local(question.text)} value={text} onChange={set} invalid={invalid} errorId={errorId} />;
    default:
      return field(<textarea id={id} {...common} rows={3} value={text} onChange={(e) => set(e.target.value)} />);
  }
}

function TimeRange({
  question,
  text,
  set,
  invalid,
  errorId,
}: {
  question: RQuestion;
  text: string;
  set: (s: string) => void;
  invalid: boolean;
  errorId: string;
}) {
  const [from = '', to = ''] = text.split('-');
  const fromId = useId();
  const toId = useId();
  const join = (a: string, b: string) => set(a || b ? `${a}-${b}` : '');
  return (
    <fieldset className="r-question" aria-describedby={invalid ? errorId : undefined}>
      <legend>{local(question.text)}</legend>
      <div className="r-row">
        <div className="r-field">
          <label className="r-label" htmlFor={fromId}>
            {t('fill.from')}
          </label>
          <input
            id={fromId}
            className="r-input"
            type="time"
            value={from}
            onChange={(e) => join(e.target.value, to)}
            aria-invalid={invalid}
            data-testid="r-fill-from"
          />
        </div>
        <div className="r-field">
          <label className="r-label" htmlFor={toId}>
            {t('fill.to')}
          </label>
          <input
            id={toId}
            className="r-input"
            type="time"
            value={to}
            onChange={(e) => join(from, e.target.value)}
            aria-invalid={invalid}
            data-testid="r-fill-to"
          />
        </div>
      </div>
    </fieldset>
  );
}

/** Input type 7: big minus and plus buttons around a number the respondent may also type. */
function NumberPicker({
  question,
  text,
  set,
  invalid,
  errorId,
  id,
  label,
}: {
  question: RQuestion;
  text: string;
  set: (s: string) => void;
  invalid: boolean;
  errorId: string;
  id: string;
  label: ReactNode;
}) {
  const min = question.range?.min ?? 0;
  const max = question.range?.max ?? 999;
  const current = /^-?\d+$/.test(text) ? Number(text) : null;
  const step = (d: number) => set(String(Math.min(max, Math.max(min, (current ?? (d > 0 ? min - 1 : min + 1)) + d))));
  return (
    <div className="r-field">
      {label}
      <span className="r-hint">{`${min} – ${max}`}</span>
      <div className="r-stepper">
        <button type="button" className="r-btn secondary" aria-label={t('fill.minus')} onClick={() => step(-1)} data-testid="r-minus">
          −
        </button>
        <input
          id={id}
          className="r-input"
          type="text"
          inputMode="numeric"
          value={text}
          onChange={(e) => set(e.target.value)}
          aria-invalid={invalid}
          aria-describedby={invalid ? errorId : undefined}
          data-testid="r-fill"
        />
        <button type="button" className="r-btn secondary" aria-label={t('fill.plus')} onClick={() => step(1)} data-testid="r-plus">
          +
        </button>
      </div>
    </div>
  );
}

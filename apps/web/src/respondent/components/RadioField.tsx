import { t } from '../i18n';
import { Problem } from './TextField';

export interface RadioOption<V> {
  value: V;
  label: string;
  testId: string;
}

type RadioFieldProps<V> = {
  name: string;
  legend: string;
  problem?: string;
  /** The problem sentence's id (unique on the page). */
  problemId: string;
  options: RadioOption<V>[];
  value: V;
  onChoose: (v: V) => void;
  /** Short choices side by side (a long label would wrap badly in a row). */
  inRow?: boolean;
};

/**
 * One choice of a few on a respondent form: native radios in big labelled cards under a legend,
 * the problem sentence when set, and the group described by it. The first radio carries
 * `data-field={name}`, which the form focuses when this is the first field to fix.
 */
export function RadioField<V extends string | number>({
  name,
  legend,
  problem,
  problemId,
  options,
  value,
  onChoose,
  inRow = false,
}: RadioFieldProps<V>) {
  const radios = options.map((o, i) => (
    <label className="r-choice" key={o.testId}>
      <input
        type="radio"
        name={name}
        data-field={i === 0 ? name : undefined}
        checked={value === o.value}
        onChange={() => onChoose(o.value)}
        data-testid={o.testId}
      />
      <span>{o.label}</span>
    </label>
  ));
  return (
    <fieldset className="r-question r-field" aria-describedby={problem ? problemId : undefined}>
      <legend className="r-label" style={{ fontSize: '1rem' }}>
        {legend}
      </legend>
      <Problem id={problemId} message={problem} />
      {inRow ? <div className="r-row">{radios}</div> : radios}
    </fieldset>
  );
}

/** The gender codes as the server files them. */
export type Gender = '01' | '02';

/** Male or female, side by side, none chosen at first (''); each radio's test id is `testIdPrefix` and the code. */
export function GenderField({
  testIdPrefix,
  ...field
}: Omit<RadioFieldProps<Gender | ''>, 'options' | 'inRow'> & { testIdPrefix: string }) {
  const options = (['01', '02'] as const).map((g) => ({
    value: g,
    label: g === '01' ? t('register.male') : t('register.female'),
    testId: `${testIdPrefix}${g}`,
  }));
  return <RadioField {...field} options={options} inRow />;
}

import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { t } from '../i18n';

/** The sentence under a field that says what to fix, linked to the input for screen readers. */
export function Problem({ id, message }: { id: string; message?: ReactNode }) {
  if (!message) return null;
  return (
    <span className="r-hint" style={{ color: 'var(--danger)', fontWeight: 700 }} id={id}>
      {message}
    </span>
  );
}

type TextFieldProps = {
  name: string;
  label: string;
  hint?: string;
  problem?: string;
  /** The problem sentence's id (unique on the page). */
  problemId: string;
  value: string;
  onValue: (v: string) => void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'name'>;

/**
 * One labelled input of a respondent form: label, optional hint, the problem sentence when set,
 * and the input marked invalid and described by it. `name` is also the `data-field` the form
 * focuses when this is the first field to fix.
 */
export function TextField({ name, label, hint, problem, problemId, value, onValue, ...input }: TextFieldProps) {
  const id = useId();
  return (
    <div className="r-field">
      <label className="r-label" htmlFor={id}>
        {label}
      </label>
      {hint && <span className="r-hint">{hint}</span>}
      <Problem id={problemId} message={problem} />
      <input
        id={id}
        data-field={name}
        className="r-input"
        value={value}
        onChange={(e) => onValue(e.target.value)}
        aria-invalid={!!problem}
        aria-describedby={problem ? problemId : undefined}
        {...input}
      />
    </div>
  );
}

/** The person's own name as the registration and the consultation request ask it (the phone may fill it in). */
export function NameField(props: Omit<TextFieldProps, 'label'>) {
  return <TextField label={t('register.realname')} autoComplete="name" {...props} />;
}

/**
 * A mainland mobile number as the server takes it (the contract's rule: 11 digits, 1 then 3-9),
 * spaces ignored: every respondent form checks it alike, so nothing it lets through is refused later.
 */
export const isMobileNumber = (v: string) => /^1[3-9]\d{9}$/.test(v.replace(/\s/g, ''));

/**
 * The 11-digit mobile number as the registration and the consultation request ask it: the same
 * label and hint, the phone's number pad and its autofill of the own number.
 */
export function MobileField(props: Omit<TextFieldProps, 'label' | 'hint'>) {
  return (
    <TextField label={t('register.phone')} hint={t('register.phoneHint')} type="tel" inputMode="numeric" autoComplete="tel" {...props} />
  );
}

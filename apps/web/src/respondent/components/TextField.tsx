import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

/** The sentence under a field that says what to fix, linked to the input for screen readers. */
export function Problem({ id, message }: { id: string; message?: ReactNode }) {
  if (!message) return null;
  return (
    <span className="r-hint" style={{ color: 'var(--danger)', fontWeight: 700 }} id={id}>
      {message}
    </span>
  );
}

/**
 * One labelled input of a respondent form: label, optional hint, the problem sentence when set,
 * and the input marked invalid and described by it. `name` is also the `data-field` the form
 * focuses when this is the first field to fix.
 */
export function TextField({
  name,
  label,
  hint,
  problem,
  problemId,
  value,
  onValue,
  ...input
}: {
  name: string;
  label: string;
  hint?: string;
  problem?: string;
  /** The problem sentence's id (unique on the page). */
  problemId: string;
  value: string;
  onValue: (v: string) => void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'name'>) {
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

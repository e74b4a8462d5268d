import { useId, useState, type FormEvent } from 'react';
import { t, type MessageKey } from '../i18n';
import { ErrorBox, Screen } from '../components/Screen';

export interface TaskLogin {
  taskcode: string;
  studentno: string;
  realname: string;
  /** The slip's PIN, asked only when the task has PINs switched on. */
  pin?: string;
}

/**
 * A group task's sign-in (/t/<task code>, or /t to type the code): the task's code from the board,
 * the student's own number and name as on the class roster, and the PIN of their slip when the
 * task asks for one (`needPin`, learnt from as.c.task.getTask).
 */
export function TaskLoginScreen({
  initial,
  error,
  busy,
  needPin = false,
  onLogin,
  onRetry,
}: {
  initial: TaskLogin;
  error: string | null;
  busy: boolean;
  needPin?: boolean;
  onLogin: (v: TaskLogin) => void;
  onRetry?: () => void;
}) {
  const [v, setV] = useState(initial);
  const [missing, setMissing] = useState<MessageKey | null>(null);
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const pin = (v.pin ?? '').replace(/\s/g, '');
    const out: TaskLogin = {
      taskcode: v.taskcode.replace(/[\s-]/g, '').toUpperCase(),
      studentno: v.studentno.trim(),
      realname: v.realname.trim(),
    };
    const empty: MessageKey | null = !out.taskcode
      ? 'task.codeEmpty'
      : !out.studentno
        ? 'task.studentnoEmpty'
        : !out.realname
          ? 'task.realnameEmpty'
          : needPin && !/^[0-9]{6}$/.test(pin)
            ? 'task.pinEmpty'
            : null;
    setMissing(empty);
    if (!empty) onLogin(needPin ? { ...out, pin } : out);
  };
  const message = missing ? t(missing) : error;
  // A failure worth trying again (network, a busy server) is no fault of what was typed.
  const retry = missing ? undefined : onRetry;
  const field = (name: keyof TaskLogin, label: MessageKey, extra: Record<string, unknown> = {}) => (
    <div className="r-field">
      <label className="r-label" htmlFor={`${id}-${name}`}>
        {t(label)}
      </label>
      <input
        id={`${id}-${name}`}
        className={`r-input${name === 'taskcode' ? ' code' : ''}`}
        value={v[name] ?? ''}
        onChange={(e) => setV({ ...v, [name]: e.target.value })}
        aria-invalid={!!message && !retry}
        data-testid={`r-task-${name}`}
        spellCheck={false}
        {...extra}
      />
    </div>
  );
  return (
    <Screen heading={t('task.heading')}>
      <p className="r-intro">{t('task.intro')}</p>
      <form onSubmit={submit} noValidate>
        {field('taskcode', 'task.codeLabel', { autoCapitalize: 'characters', autoComplete: 'off' })}
        {field('studentno', 'task.studentnoLabel', { autoComplete: 'off', inputMode: 'text' })}
        {field('realname', 'task.realnameLabel', { autoComplete: 'name' })}
        {needPin && (
          <>
            {field('pin', 'task.pinLabel', {
              autoComplete: 'off',
              inputMode: 'numeric',
              maxLength: 6,
              'aria-describedby': `${id}-pin-hint`,
            })}
            <p className="r-hint" id={`${id}-pin-hint`}>
              {t('task.pinHint')}
            </p>
          </>
        )}
        <ErrorBox message={message} onRetry={retry} />
        <button type="submit" className="r-btn" disabled={busy} data-testid="r-task-start">
          {busy ? t('loading') : t('start.submit')}
        </button>
      </form>
    </Screen>
  );
}

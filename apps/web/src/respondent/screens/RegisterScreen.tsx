import { useState, type FormEvent, type ReactNode } from 'react';
import { t, type MessageKey } from '../i18n';
import { ErrorBox, Screen } from '../components/Screen';
import { TextField } from '../components/TextField';
import { GenderField, RadioField, type Gender } from '../components/RadioField';
import { ConsultOffer } from './ConsultScreens';

export interface Registration {
  appid: string;
  stagecode: string;
  realname: string;
  gender: Gender;
  birthdate?: string;
  phone?: string;
}

/** A choice the QR entry offers: one stage of one population app. */
export interface EntryChoice {
  appid: string;
  stagecode: string;
  label: string;
}

/**
 * Arriving through an institution's QR code: which assessment (only when the entry offers more
 * than one), name, gender, birth date and phone, then start.
 */
export function RegisterScreen({
  error,
  busy,
  onRegister,
  onRetry,
  brand,
  welcome,
  choices,
  onConsult,
  extra,
}: {
  error: string | null;
  busy: boolean;
  onRegister: (r: Registration) => void;
  onRetry?: () => void;
  brand?: string;
  welcome?: string;
  choices: EntryChoice[];
  /** Set when the institution offers a consultation request form (type 03). */
  onConsult?: () => void;
  /** More offers of the entry (the institution's articles). */
  extra?: ReactNode;
}) {
  const [choice, setChoice] = useState(choices.length === 1 ? 0 : -1);
  const [realname, setName] = useState('');
  const [gender, setGender] = useState<Gender | ''>('');
  const [birthdate, setBirth] = useState('');
  const [phone, setPhone] = useState('');
  const [problems, setProblems] = useState<Partial<Record<'choice' | 'realname' | 'gender' | 'birthdate' | 'phone', MessageKey>>>({});

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found: typeof problems = {};
    if (choice < 0) found.choice = 'register.choiceEmpty';
    if (!realname.trim()) found.realname = 'register.nameEmpty';
    if (!gender) found.gender = 'register.genderEmpty';
    if (!birthdate) found.birthdate = 'register.birthEmpty';
    if (!/^1\d{10}$/.test(phone.replace(/\s/g, ''))) found.phone = 'register.phoneBad';
    setProblems(found);
    if (Object.keys(found).length) {
      // Take the respondent to the first field to fix.
      const first = Object.keys(found)[0] as keyof typeof found;
      document.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    onRegister({
      appid: choices[choice].appid,
      stagecode: choices[choice].stagecode,
      realname: realname.trim(),
      gender: gender as Gender,
      birthdate,
      phone: phone.replace(/\s/g, ''),
    });
  };
  const problem = (field: keyof typeof problems) => (problems[field] ? t(problems[field]!) : undefined);

  return (
    <Screen heading={t('register.heading')} brand={brand}>
      <p className="r-intro">{welcome || t('register.intro')}</p>
      <form onSubmit={submit} noValidate>
        {choices.length > 1 && (
          <RadioField
            name="choice"
            legend={t('register.choice')}
            problem={problem('choice')}
            problemId="choice-problem"
            options={choices.map((c, i) => ({ value: i, label: c.label, testId: `r-choice-${i}` }))}
            value={choice}
            onChoose={setChoice}
          />
        )}
        <TextField
          name="realname"
          label={t('register.realname')}
          problem={problem('realname')}
          problemId="realname-problem"
          value={realname}
          onValue={setName}
          autoComplete="name"
          data-testid="r-realname"
        />
        <GenderField
          name="gender"
          legend={t('register.gender')}
          problem={problem('gender')}
          problemId="gender-problem"
          value={gender}
          onChoose={setGender}
          testIdPrefix="r-gender-"
        />
        <TextField
          name="birthdate"
          label={t('register.birthdate')}
          problem={problem('birthdate')}
          problemId="birthdate-problem"
          value={birthdate}
          onValue={setBirth}
          type="date"
          autoComplete="bday"
          data-testid="r-birthdate"
        />
        <TextField
          name="phone"
          label={t('register.phone')}
          hint={t('register.phoneHint')}
          problem={problem('phone')}
          problemId="phone-problem"
          value={phone}
          onValue={setPhone}
          type="tel"
          inputMode="numeric"
          autoComplete="tel"
          data-testid="r-phone"
        />
        <ErrorBox message={error} onRetry={onRetry} />
        <button type="submit" className="r-btn" disabled={busy} data-testid="r-register">
          {busy ? t('saving') : t('register.submit')}
        </button>
      </form>
      {onConsult && <ConsultOffer onConsult={onConsult} />}
      {extra}
    </Screen>
  );
}

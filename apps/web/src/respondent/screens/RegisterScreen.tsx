import { useState, type FormEvent, type ReactNode } from 'react';
import { t } from '../i18n';
import { ErrorBox, Screen } from '../components/Screen';
import { isMobileNumber, MobileField, NameField, TextField } from '../components/TextField';
import { GenderField, RadioField, type Gender } from '../components/RadioField';
import { useFieldProblems, type Found } from '../components/fieldProblems';
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

type Field = 'choice' | 'realname' | 'gender' | 'birthdate' | 'phone';

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
  const { report, field } = useFieldProblems<Field>();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // In the order of the form: the first one found is where the respondent is taken.
    const found: Found<Field> = {};
    if (choice < 0) found.choice = 'register.choiceEmpty';
    if (!realname.trim()) found.realname = 'register.nameEmpty';
    if (!gender) found.gender = 'register.genderEmpty';
    if (!birthdate) found.birthdate = 'register.birthEmpty';
    if (!isMobileNumber(phone)) found.phone = 'register.phoneBad';
    if (!report(found)) return;
    onRegister({
      appid: choices[choice].appid,
      stagecode: choices[choice].stagecode,
      realname: realname.trim(),
      gender: gender as Gender,
      birthdate,
      phone: phone.replace(/\s/g, ''),
    });
  };

  return (
    <Screen heading={t('register.heading')} brand={brand}>
      <p className="r-intro">{welcome || t('register.intro')}</p>
      <form onSubmit={submit} noValidate>
        {choices.length > 1 && (
          <RadioField
            {...field('choice')}
            legend={t('register.choice')}
            options={choices.map((c, i) => ({ value: i, label: c.label, testId: `r-choice-${i}` }))}
            value={choice}
            onChoose={setChoice}
          />
        )}
        <NameField {...field('realname')} value={realname} onValue={setName} data-testid="r-realname" />
        <GenderField {...field('gender')} legend={t('register.gender')} value={gender} onChoose={setGender} testIdPrefix="r-gender-" />
        <TextField
          {...field('birthdate')}
          label={t('register.birthdate')}
          value={birthdate}
          onValue={setBirth}
          type="date"
          autoComplete="bday"
          data-testid="r-birthdate"
        />
        <MobileField {...field('phone')} value={phone} onValue={setPhone} data-testid="r-phone" />
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

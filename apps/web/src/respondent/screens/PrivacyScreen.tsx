import { useRef, useState, type ReactNode } from 'react';
import { local, t } from '../i18n';
import { ErrorBox, Screen } from '../components/Screen';
import { SignatureBox, type SignatureHandle } from '../components/SignatureBox';
import { RadioField } from '../components/RadioField';
import { TextField } from '../components/TextField';

type Text = { zh: string; en: string };
export type Relation = 'father' | 'mother' | 'grandparent' | 'other';
export interface GuardianConsentInput {
  guardianname: string;
  relation: Relation;
  signature: string;
}

/** The institution's notice on sensitive personal information, in its own box. */
function Notice({ text }: { text: Text }) {
  return (
    <div className="r-text" data-testid="r-notice-text">
      {local(text)}
    </div>
  );
}

function AgreeBox({ agreed, onChange, label }: { agreed: boolean; onChange: (v: boolean) => void; label: string }) {
  return (
    <label className="r-check">
      <input type="checkbox" checked={agreed} onChange={(e) => onChange(e.target.checked)} data-testid="r-notice-agree" />
      <span>{label}</span>
    </label>
  );
}

/**
 * The separate consent to process sensitive personal information (PIPL Arts. 14, 29): the
 * institution's notice and its own "I agree", apart from the assessment's consent and signature.
 */
export function NoticeScreen(props: {
  text: Text;
  brand: string;
  progress: ReactNode;
  error: string | null;
  busy: boolean;
  onAgree: () => void;
  onRetry?: () => void;
}) {
  const [agreed, setAgreed] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <Screen heading={t('privacy.heading')} brand={props.brand} progress={props.progress}>
      <p className="r-intro">{t('privacy.intro')}</p>
      <Notice text={props.text} />
      <AgreeBox
        agreed={agreed}
        label={t('privacy.agree')}
        onChange={(v) => {
          setAgreed(v);
          setProblem(null);
        }}
      />
      <ErrorBox message={problem ?? props.error} onRetry={problem ? undefined : props.onRetry} />
      <button
        type="button"
        className="r-btn"
        disabled={props.busy}
        onClick={() => (agreed ? props.onAgree() : setProblem(t('privacy.agreeEmpty')))}
        data-testid="r-notice-submit"
      >
        {props.busy ? t('saving') : t('privacy.submit')}
      </button>
    </Screen>
  );
}

const RELATIONS: Relation[] = ['mother', 'father', 'grandparent', 'other'];

/**
 * A respondent under 14 (PIPL Art. 31): why they cannot go on alone, and what to do — a guardian
 * consents here on the phone (name, relation, signature), or the teacher records the class's
 * consent sheet.
 */
export function GuardianScreen(props: {
  text: Text;
  brand: string;
  progress: ReactNode;
  error: string | null;
  busy: boolean;
  onConsent: (c: GuardianConsentInput) => void;
  onRetry?: () => void;
}) {
  const [name, setName] = useState('');
  const [relation, setRelation] = useState<Relation | ''>('');
  const [agreed, setAgreed] = useState(false);
  const [empty, setEmpty] = useState(true);
  const [problems, setProblems] = useState<{ name?: string; relation?: string; other?: string }>({});
  const pad = useRef<SignatureHandle>(null);

  const submit = () => {
    const found = {
      name: name.trim() ? undefined : t('guardian.nameEmpty'),
      relation: relation ? undefined : t('guardian.relationEmpty'),
      other: !agreed ? t('privacy.agreeEmpty') : (pad.current?.isEmpty() ?? true) ? t('consent.signEmpty') : undefined,
    };
    setProblems(found);
    if (found.name || found.relation || found.other) return;
    props.onConsent({ guardianname: name.trim(), relation: relation as Relation, signature: pad.current!.toPng() });
  };

  return (
    <Screen heading={t('guardian.heading')} brand={props.brand} progress={props.progress}>
      <div className="r-callout" role="note" data-testid="r-guardian-why">
        <p>{t('guardian.why')}</p>
        <p>{t('guardian.whatToDo')}</p>
      </div>
      <Notice text={props.text} />
      <TextField
        name="guardianname"
        label={t('guardian.name')}
        autoComplete="name"
        maxLength={50}
        problem={problems.name}
        problemId="r-guardian-name-problem"
        value={name}
        onValue={setName}
        data-testid="r-guardian-name"
      />
      <RadioField
        name="relation"
        legend={t('guardian.relation')}
        problem={problems.relation}
        problemId="r-guardian-relation-problem"
        options={RELATIONS.map((r) => ({ value: r, label: t(`guardian.relations.${r}`), testId: `r-relation-${r}` }))}
        value={relation}
        onChoose={setRelation}
      />
      <AgreeBox agreed={agreed} label={t('guardian.agree')} onChange={setAgreed} />
      <p className="r-label">{t('guardian.signLabel')}</p>
      <SignatureBox ref={pad} onChange={setEmpty} />
      <button
        type="button"
        className="r-btn secondary"
        onClick={() => pad.current?.clear()}
        disabled={empty}
        data-testid="r-guardian-clear"
      >
        {t('consent.clear')}
      </button>
      <ErrorBox message={problems.other ?? props.error} onRetry={problems.other ? undefined : props.onRetry} />
      <button type="button" className="r-btn" disabled={props.busy} onClick={submit} data-testid="r-guardian-submit">
        {props.busy ? t('saving') : t('guardian.submit')}
      </button>
    </Screen>
  );
}

/** Consent was withdrawn: nothing more can be answered; whom to ask. */
export function WithdrawnScreen({ brand }: { brand: string }) {
  return (
    <Screen heading={t('privacy.withdrawnHeading')} brand={brand}>
      <p className="r-intro" data-testid="r-withdrawn">
        {t('privacy.withdrawn')}
      </p>
    </Screen>
  );
}

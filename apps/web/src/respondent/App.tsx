import { useCallback, useEffect, useState } from 'react';
import type { ActionOutput } from '@xinli/contract';
import { call, RespondentError, setToken } from './api';
import { local, safeStorage, t, useLang } from './i18n';
import { byNo, fromArchiveValue, toArchiveValue } from './answers';
import { ErrorBox, Loading, Progress, Screen } from './components/Screen';
import { StartScreen } from './screens/StartScreen';
import { TaskLoginScreen, type TaskLogin } from './screens/TaskLoginScreen';
import { RegisterScreen, type EntryChoice, type Registration } from './screens/RegisterScreen';
import { ConsentScreen } from './screens/ConsentScreen';
import { GuardianScreen, NoticeScreen, WithdrawnScreen } from './screens/PrivacyScreen';
import { AnswerFlow } from './screens/AnswerFlow';
import { ResultScreen, type RespondentResult } from './screens/ResultScreen';
import { ArticleListScreen, ArticleScreen } from './screens/ArticleScreens';
import { ShopScreen } from './screens/ShopScreens';
import { MediaScreen } from './screens/MediaScreen';
import { PageLink, entryHref } from './components/PageLink';
import { ConsultContactScreen, ConsultThanksScreen, type ConsultContact } from './screens/ConsultScreens';

type Session = ActionOutput<'as.c.exam.getSession'>;
type FormDetail = ActionOutput<'as.c.exam.getForm'>;
type ArchiveForm = NonNullable<ActionOutput<'as.c.exam.getArchiveForm'>>;
type Entry = ActionOutput<'as.c.exam.getEntry'>;
type ConsultEntry = ActionOutput<'as.c.registration.getForm'>;
type ConsultForm = NonNullable<ConsultEntry['form']>;

type Phase =
  | { kind: 'loading' }
  | { kind: 'start'; code: string; error: RespondentError | null; busy: boolean }
  | { kind: 'task'; login: TaskLogin; needPin: boolean; error: RespondentError | null; busy: boolean }
  | { kind: 'register'; entrytoken: string; entry: Entry; consult: ConsultEntry | null; error: RespondentError | null; busy: boolean }
  | { kind: 'consultContact'; back: Phase & { kind: 'register' }; form: ConsultForm; contact: ConsultContact | null }
  | { kind: 'consultForm'; back: Phase & { kind: 'register' }; form: ConsultForm; contact: ConsultContact }
  | { kind: 'consultDone'; brand: string; hotline: string }
  | { kind: 'failed'; error: RespondentError; retry?: () => void }
  | { kind: 'notice'; error: RespondentError | null; busy: boolean }
  | { kind: 'guardian'; error: RespondentError | null; busy: boolean }
  | { kind: 'withdrawn' }
  | { kind: 'consent'; error: RespondentError | null; busy: boolean }
  | { kind: 'archive'; form: ArchiveForm }
  | { kind: 'form'; detail: FormDetail; resumed: boolean }
  | { kind: 'result'; results: RespondentResult[] };

/** Where the page was opened: /a/<code>, /r/<entry token>, /t[/<task code>] (a group task's sign-in), or the start page. */
function route(): {
  code?: string;
  entrytoken?: string;
  taskcode?: string;
  articles?: { articleid?: string };
  shop?: boolean;
  media?: boolean;
} {
  const [, kind, value, sub, id] = location.pathname.split('/');
  if (kind === 'a' && value) return { code: decodeURIComponent(value) };
  if (kind === 'r' && value && sub === 'media') return { entrytoken: decodeURIComponent(value), media: true };
  if (kind === 'r' && value && sub === 'shop') return { entrytoken: decodeURIComponent(value), shop: true };
  if (kind === 'r' && value && sub === 'articles')
    return { entrytoken: decodeURIComponent(value), articles: { articleid: id ? decodeURIComponent(id) : undefined } };
  if (kind === 'r' && value) return { entrytoken: decodeURIComponent(value) };
  if (kind === 't') return { taskcode: value ? decodeURIComponent(value) : '' };
  return {};
}

const asError = (err: unknown) => (err instanceof RespondentError ? err : new RespondentError(t('genericError'), -1));

/** The respondent token is kept per code, so reopening the link on the phone resumes. */
const tokenKey = (code: string) => `respondent.token.${code.toUpperCase()}`;

/**
 * The respondent flow: start (code, or QR registration) → the separate consent to process
 * sensitive personal information (a guardian's, under 14) → consent and signature → archive form
 * → the plan's forms one question per screen → result. Every step is decided from the server's
 * session (as.c.exam.getSession), so a reload or a phone closed mid-way comes back to the same
 * place.
 */
export function App() {
  const { articles, shop, media, entrytoken } = route();
  if (media) return <Media entrytoken={entrytoken!} />;
  if (shop) return <Shop entrytoken={entrytoken!} />;
  if (articles) return <Articles entrytoken={entrytoken!} articleid={articles.articleid} />;
  return <Flow />;
}

/** The institution's articles, read through its QR link: no assessment, no token. */
function Articles({ entrytoken, articleid }: { entrytoken: string; articleid?: string }) {
  useLang();
  return articleid ? <ArticleScreen entrytoken={entrytoken} articleid={articleid} /> : <ArticleListScreen entrytoken={entrytoken} />;
}

/** The institution's music and courses. */
function Media({ entrytoken }: { entrytoken: string }) {
  useLang();
  return <MediaScreen entrytoken={entrytoken} />;
}

/** The institution's goods, bought through its QR link and paid at the sandbox provider. */
function Shop({ entrytoken }: { entrytoken: string }) {
  useLang();
  return <ShopScreen entrytoken={entrytoken} />;
}

/** Under the QR registration: the institution's articles, music and courses, and goods. */
function ContentOffers({ entrytoken }: { entrytoken: string }) {
  return (
    <>
      <PageLink href={entryHref(entrytoken, 'articles')} testId="r-articles-link">
        {t('articles.offer')}
      </PageLink>
      <PageLink href={entryHref(entrytoken, 'media')} testId="r-media-link">
        {t('media.offer')}
      </PageLink>
      <PageLink href={entryHref(entrytoken, 'shop')} testId="r-shop-link">
        {t('shop.offer')}
      </PageLink>
    </>
  );
}

function Flow() {
  useLang();
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const [session, setSession] = useState<Session | null>(null);

  /** Runs a load; a network failure offers "try again", a refusal shows the server's sentence. */
  const guarded = useCallback(async (work: () => Promise<void>): Promise<void> => {
    try {
      await work();
    } catch (err) {
      const error = err instanceof RespondentError ? err : new RespondentError(t('genericError'), -1);
      setPhase({ kind: 'failed', error, retry: error.network ? () => void guarded(work) : undefined });
    }
  }, []);

  /** Decides and loads the next step from where the session stands. */
  const advance = useCallback(
    (s: Session) =>
      guarded(async () => {
        setSession(s);
        if (s.privacy.withdrawn) return setPhase({ kind: 'withdrawn' });
        if (s.privacy.minor && !s.privacy.guardian) return setPhase({ kind: 'guardian', error: null, busy: false });
        if (!s.privacy.agreed) return setPhase({ kind: 'notice', error: null, busy: false });
        if (!s.consent.signed) return setPhase({ kind: 'consent', error: null, busy: false });
        if (s.archive && !s.archive.done) {
          const form = await call('as.c.exam.getArchiveForm', {});
          if (form) return setPhase({ kind: 'archive', form });
        }
        const todo = s.forms.find((f) => f.status === 'todo');
        if (todo) {
          setPhase({ kind: 'loading' });
          const detail = await call('as.c.exam.getForm', { formcode: todo.formcode });
          return setPhase({ kind: 'form', detail, resumed: detail.saved.length > 0 });
        }
        const results = await Promise.all(
          s.forms.filter((f) => f.reportid).map((f) => call('as.c.exam.getResult', { reportid: f.reportid! })),
        );
        setPhase({ kind: 'result', results });
      }),
    [guarded],
  );

  const refresh = useCallback(() => guarded(async () => advance(await call('as.c.exam.getSession', {}))), [guarded, advance]);

  const opened = useCallback(
    (s: Session & { token: string }) => {
      setToken(s.token);
      safeStorage()?.setItem(tokenKey(s.assesscode), s.token);
      if (location.pathname !== `/a/${s.assesscode}`) history.replaceState(null, '', `/a/${s.assesscode}${location.search}`);
      return advance(s);
    },
    [advance],
  );

  const start = useCallback(
    async (code: string) => {
      setPhase({ kind: 'start', code, error: null, busy: true });
      try {
        await opened(await call('as.c.exam.start', { assesscode: code }));
      } catch (err) {
        setPhase({
          kind: 'start',
          code,
          error: err instanceof RespondentError ? err : new RespondentError(t('genericError'), -1),
          busy: false,
        });
      }
    },
    [opened],
  );

  const taskLogin = useCallback(
    async (login: TaskLogin, needPin: boolean) => {
      setPhase({ kind: 'task', login, needPin, error: null, busy: true });
      try {
        // Without a PIN, first ask whether the task wants one (issue 27): then the screen asks for it.
        if (!login.pin && (await call('as.c.task.getTask', { taskcode: login.taskcode })).pinrequired)
          return setPhase({ kind: 'task', login, needPin: true, error: new RespondentError(t('task.pinEmpty'), -1), busy: false });
        await opened(await call('as.c.task.login', login));
      } catch (err) {
        setPhase({ kind: 'task', login, needPin, error: asError(err), busy: false });
      }
    },
    [opened],
  );

  useEffect(() => {
    const { code, entrytoken, taskcode } = route();
    if (taskcode !== undefined) {
      setPhase({ kind: 'task', login: { taskcode, studentno: '', realname: '' }, needPin: false, error: null, busy: false });
      // A link with the task's code: show the PIN field at once when the task asks for one.
      if (taskcode)
        void call('as.c.task.getTask', { taskcode })
          .then((info) => info.pinrequired && setPhase((p) => (p.kind === 'task' ? { ...p, needPin: true } : p)))
          .catch(() => undefined);
      return;
    }
    if (entrytoken) {
      void guarded(async () => {
        // The consultation request is an extra: the entry works without it if it fails to load.
        const [entry, consult] = await Promise.all([
          call('as.c.exam.getEntry', { entrytoken }),
          call('as.c.registration.getForm', { entrytoken }).catch(() => null),
        ]);
        setPhase({ kind: 'register', entrytoken, entry, consult, error: null, busy: false });
      });
      return;
    }
    if (!code) return setPhase({ kind: 'start', code: '', error: null, busy: false });
    const kept = safeStorage()?.getItem(tokenKey(code));
    if (!kept) return void start(code);
    // Resume with the kept token; if the server no longer knows it, open the code again.
    setToken(kept);
    call('as.c.exam.getSession', {}).then(advance, (err: unknown) => {
      if (err instanceof RespondentError && err.network) return setPhase({ kind: 'failed', error: err, retry: () => location.reload() });
      safeStorage()?.removeItem(tokenKey(code));
      setToken(null);
      void start(code);
    });
  }, [guarded, start, advance]);

  const register = async (entrytoken: string, entry: Entry, consult: ConsultEntry | null, r: Registration) => {
    setPhase({ kind: 'register', entrytoken, entry, consult, error: null, busy: true });
    try {
      await opened(await call('as.c.exam.enter', { entrytoken, ...r }));
    } catch (err) {
      setPhase({
        kind: 'register',
        entrytoken,
        entry,
        consult,
        error: err instanceof RespondentError ? err : new RespondentError(t('genericError'), -1),
        busy: false,
      });
    }
  };

  /** Sends a consent step, then moves on from where the session stands; a refusal stays on the step. */
  const consentStep = async (kind: 'notice' | 'guardian', send: () => Promise<unknown>) => {
    setPhase({ kind, error: null, busy: true });
    try {
      await send();
      await refresh();
    } catch (err) {
      setPhase({ kind, error: asError(err), busy: false });
    }
  };

  const brand = session?.insname ?? '';
  const steps = session ? 1 + (session.archive ? 1 : 0) + session.forms.length + 1 : 0;
  /** "Step n of total"; the bar counts finished steps, so the last (result) step fills it. */
  const stepProgress = (n: number) =>
    session ? <Progress label={t('step', { n, total: steps })} value={n === steps ? steps : n - 1} max={steps} /> : null;
  const archiveSteps = session?.archive ? 1 : 0;

  switch (phase.kind) {
    case 'loading':
      return (
        <Screen heading={t('title')}>
          <Loading />
        </Screen>
      );
    case 'start':
      return (
        <StartScreen
          key={phase.code}
          initialCode={phase.code}
          error={phase.error?.message ?? null}
          busy={phase.busy}
          onStart={start}
          onRetry={phase.error?.network ? () => void start(phase.code) : undefined}
        />
      );
    case 'task':
      return (
        <TaskLoginScreen
          initial={phase.login}
          error={phase.error?.message ?? null}
          busy={phase.busy}
          needPin={phase.needPin}
          onLogin={(v) => void taskLogin(v, phase.needPin)}
          onRetry={phase.error?.network ? () => void taskLogin(phase.login, phase.needPin) : undefined}
        />
      );
    case 'register': {
      const choices: EntryChoice[] = phase.entry.apps.flatMap((app) =>
        app.stages.map((st) => ({
          appid: app.appid,
          stagecode: st.stagecode,
          label: app.stages.length > 1 || phase.entry.apps.length > 1 ? `${app.appname} · ${st.stagename}` : app.appname,
        })),
      );
      return (
        <RegisterScreen
          brand={phase.entry.title || phase.entry.insname}
          welcome={phase.entry.welcome}
          choices={choices}
          error={phase.error?.message ?? null}
          busy={phase.busy}
          onRegister={(r) => void register(phase.entrytoken, phase.entry, phase.consult, r)}
          onConsult={
            phase.consult?.form
              ? () => setPhase({ kind: 'consultContact', back: phase, form: phase.consult!.form!, contact: null })
              : undefined
          }
          extra={<ContentOffers entrytoken={phase.entrytoken} />}
        />
      );
    }
    case 'consultContact':
      return (
        <ConsultContactScreen
          brand={phase.back.entry.title || phase.back.entry.insname}
          initial={phase.contact}
          onNext={(contact) => setPhase({ kind: 'consultForm', back: phase.back, form: phase.form, contact })}
        />
      );
    case 'consultForm': {
      const { form, back, contact } = phase;
      const brandName = back.entry.title || back.entry.insname;
      return (
        <AnswerFlow
          key="consult"
          brand={brandName}
          title={local(form.formname)}
          stepLabel={t('consult.formProgress')}
          instructions={form.instructions}
          questions={form.questions}
          saved={{}}
          saveOne={null}
          confirmAtEnd={false}
          finish={async (answers) => {
            const done = await call('as.c.registration.submit', {
              entrytoken: back.entrytoken,
              formcode: form.formcode,
              ...contact,
              answers: answers.map((a) =>
                toArchiveValue(
                  form.questions.find((x) => x.no === a.no)!,
                  a,
                ),
              ),
            });
            setPhase({ kind: 'consultDone', brand: brandName, hotline: done.hotline });
          }}
        />
      );
    }
    case 'consultDone':
      return <ConsultThanksScreen brand={phase.brand} hotline={phase.hotline} />;
    case 'failed':
      return (
        <Screen heading={t('failedHeading')} brand={brand}>
          <ErrorBox message={phase.error.message} onRetry={phase.retry} />
          {!phase.retry && (
            <a className="r-btn secondary" href="/a" data-testid="r-restart">
              {t('errors.backToStart')}
            </a>
          )}
        </Screen>
      );
    case 'withdrawn':
      return <WithdrawnScreen brand={brand} />;
    case 'notice':
      return (
        <NoticeScreen
          text={session!.privacy.notice}
          brand={brand}
          progress={stepProgress(1)}
          error={phase.error?.message ?? null}
          busy={phase.busy}
          onAgree={() => void consentStep('notice', () => call('as.c.exam.agreeNotice', { version: session!.privacy.version }))}
        />
      );
    case 'guardian':
      return (
        <GuardianScreen
          text={session!.privacy.notice}
          brand={brand}
          progress={stepProgress(1)}
          error={phase.error?.message ?? null}
          busy={phase.busy}
          onConsent={(c) => void consentStep('guardian', () => call('as.c.exam.giveGuardianConsent', { version: session!.privacy.version, ...c }))}
        />
      );
    case 'consent':
      return (
        <ConsentScreen
          text={session!.consent.text}
          brand={brand}
          progress={stepProgress(1)}
          error={phase.error?.message ?? null}
          busy={phase.busy}
          onSign={async (png) => {
            setPhase({ kind: 'consent', error: null, busy: true });
            try {
              await call('as.c.exam.sign', { signature: png });
              await refresh();
            } catch (err) {
              setPhase({
                kind: 'consent',
                error: err instanceof RespondentError ? err : new RespondentError(t('genericError'), -1),
                busy: false,
              });
            }
          }}
        />
      );
    case 'archive': {
      const questions = phase.form.questions;
      const saved = Object.fromEntries(
        phase.form.saved.map((v) => [
          v.no,
          fromArchiveValue(
            questions.find((x) => x.no === v.no),
            v,
          ),
        ]),
      );
      return (
        <AnswerFlow
          key="archive"
          brand={brand}
          title={t('archive.heading')}
          stepLabel={t('step', { n: 2, total: steps })}
          instructions={{ zh: t('archive.intro'), en: t('archive.intro') }}
          questions={questions}
          saved={saved}
          saveOne={null}
          confirmAtEnd={false}
          finish={async (answers) => {
            await call('as.c.exam.saveArchive', {
              answers: answers.map((a) =>
                toArchiveValue(
                  questions.find((x) => x.no === a.no)!,
                  a,
                ),
              ),
            });
            await refresh();
          }}
        />
      );
    }
    case 'form': {
      const { detail } = phase;
      const position = session!.forms.findIndex((f) => f.formcode === detail.formcode);
      return (
        <AnswerFlow
          key={detail.formcode}
          brand={brand}
          title={local(detail.formname)}
          stepLabel={t('question.formProgress', { n: position + 1, total: session!.forms.length })}
          instructions={detail.instructions}
          questions={detail.questions}
          saved={byNo(detail.saved)}
          notice={phase.resumed ? t('question.resumed') : undefined}
          saveOne={(a) => call('as.c.exam.saveProgress', { formcode: detail.formcode, answers: [a] })}
          confirmAtEnd
          finish={async (answers) => {
            await call('as.c.exam.submit', { formcode: detail.formcode, answers });
            await refresh();
          }}
        />
      );
    }
    case 'result':
      return (
        <ResultScreen results={phase.results} brand={brand} progress={stepProgress(1 + archiveSteps + (session?.forms.length ?? 0) + 1)} />
      );
  }
}

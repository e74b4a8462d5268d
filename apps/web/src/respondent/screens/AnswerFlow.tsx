import { useId, useState, type ReactNode } from 'react';
import type { AnswerInput } from '@xinli/contract';
import { local, t } from '../i18n';
import { checkAnswer, isGiven, resumeIndex, type Answers, type RQuestion } from '../answers';
import { ErrorBox, Progress, Screen } from '../components/Screen';
import { Question } from '../components/Question';
import { RespondentError } from '../api';

interface Props {
  brand: string;
  /** The form's name: shown above the question count. */
  title: string;
  /** The step line ("Questionnaire 1 of 2: PHQ-9"). */
  stepLabel: string;
  instructions?: { zh: string; en: string };
  questions: RQuestion[];
  saved: Answers;
  /** Saves one answer on the server before the next question shows (null: keep it on the page). */
  saveOne: ((a: AnswerInput) => Promise<unknown>) | null;
  /** Submits the whole sheet. */
  finish: (answers: AnswerInput[]) => Promise<unknown>;
  /** Forms ask for a last confirmation ("cannot be changed"); the archive saves at once. */
  confirmAtEnd: boolean;
  /** A note on the first screen shown (e.g. "you continue where you stopped"). */
  notice?: string;
}

/**
 * One question per screen with Back / Next, a progress bar, and the answer saved on the server
 * before moving on, so closing the phone loses nothing: reopening starts at the first question
 * without a saved answer. A failed save keeps the answer on screen with "try again".
 */
export function AnswerFlow(props: Props) {
  const { questions } = props;
  const [answers, setAnswers] = useState<Answers>(props.saved);
  const [index, setIndex] = useState(() => resumeIndex(questions, props.saved));
  const [problem, setProblem] = useState<{ text: string; retry?: () => void } | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState(props.notice && index > 0 ? props.notice : undefined);
  const errorId = useId();
  const atEnd = index >= questions.length;
  const question = questions[Math.min(index, questions.length - 1)];

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    try {
      await work();
    } catch (err) {
      const e = err instanceof RespondentError ? err : new RespondentError(t('genericError'), -1);
      setProblem({ text: e.message, retry: e.network ? () => void run(work) : undefined });
    } finally {
      setBusy(false);
    }
  };

  const finish = (all: Answers) => run(() => props.finish(questions.map((q) => all[q.no]).filter(isGiven)).then(() => undefined));

  const next = () => {
    const a = answers[question.no];
    const bad = checkAnswer(question, a);
    if (bad) return setProblem({ text: bad });
    setNotice(undefined);
    void run(async () => {
      if (isGiven(a) && props.saveOne) await props.saveOne(a);
      if (index + 1 >= questions.length && !props.confirmAtEnd) {
        await props.finish(questions.map((q) => answers[q.no]).filter(isGiven));
        return;
      }
      setIndex(index + 1);
    });
  };
  const back = () => {
    setProblem(null);
    setNotice(undefined);
    setIndex(Math.max(0, index - 1));
  };

  const shown = Math.min(index + 1, questions.length);
  const progress: ReactNode = (
    <Progress
      caption={props.stepLabel}
      label={t('question.progress', { n: shown, total: questions.length })}
      value={atEnd ? questions.length : index}
      max={questions.length}
    />
  );

  if (atEnd) {
    return (
      <Screen heading={props.title} brand={props.brand} progress={progress} focusKey="end">
        <p className="r-note">{t('question.submitHint')}</p>
        <ErrorBox message={problem?.text ?? null} onRetry={problem?.retry} />
        <button type="button" className="r-btn" disabled={busy} onClick={() => finish(answers)} data-testid="r-submit">
          {busy ? t('saving') : t('question.submitForm')}
        </button>
        <button type="button" className="r-btn secondary" disabled={busy} onClick={back} data-testid="r-back">
          {t('question.review')}
        </button>
      </Screen>
    );
  }

  return (
    <Screen heading={props.title} brand={props.brand} progress={progress} focusKey={index}>
      {notice && (
        <p className="r-note" role="status" data-testid="r-resumed">
          {notice}
        </p>
      )}
      {index === 0 && local(props.instructions) && <p className="r-intro">{local(props.instructions)}</p>}
      <Question
        key={question.no}
        question={question}
        value={answers[question.no]}
        onChange={(a) => {
          setProblem(null);
          setAnswers({ ...answers, [question.no]: a });
        }}
        invalid={!!problem && !problem.retry}
        errorId={errorId}
      />
      <div id={errorId}>
        <ErrorBox message={problem?.text ?? null} onRetry={problem?.retry} />
      </div>
      <div className="r-actions">
        {index > 0 && (
          <button type="button" className="r-btn secondary" disabled={busy} onClick={back} data-testid="r-back">
            {t('back')}
          </button>
        )}
        <button type="button" className="r-btn" disabled={busy} onClick={next} data-testid="r-next">
          {busy ? t('saving') : t('next')}
        </button>
      </div>
    </Screen>
  );
}

import type { ActionOutput } from '@xinli/contract';
import type { ReactNode } from 'react';
import { currentLang, local, t } from '../i18n';
import { Screen } from '../components/Screen';
import { CallableText } from '../components/CallableText';

export type RespondentResult = ActionOutput<'as.c.exam.getResult'>;

/**
 * The end: thanks; the crisis text first whenever a critical answer was given (always, even
 * when the institution shows no results); then each form's result in plain words (band name,
 * interpretation, advice) when the institution allows it.
 */
export function ResultScreen({ results, brand, progress }: { results: RespondentResult[]; brand: string; progress: ReactNode }) {
  const crises = [...new Set(results.map((r) => local(r.crisis)).filter(Boolean))];
  const anyCrisis = results.some((r) => r.crisis);
  const shown = results.filter((r) => r.shown);
  return (
    <Screen heading={t('result.heading')} brand={brand} progress={progress}>
      {anyCrisis && (
        <section className="r-crisis" role="alert" data-testid="r-crisis">
          <h2>{t('result.crisisHeading')}</h2>
          {(crises.length ? crises : [t('result.crisisDefault')]).map((text) => (
            <p key={text}>
              <CallableText text={text} />
            </p>
          ))}
        </section>
      )}
      <p className="r-note">{t('result.thanks')}</p>
      {shown.length === 0 && <p>{t('result.hidden')}</p>}
      {shown.map((r) => (
        <section className="r-result" key={r.reportid} data-testid="r-result">
          <h2>{local(r.formname)}</h2>
          {r.indicators.map((ind, i) => (
            <div key={i}>
              <h3 className="r-badge">
                {ind.colour && <span className="r-dot" style={{ background: ind.colour }} aria-hidden="true" />}
                <span>
                  {local(ind.name)}
                  {ind.label ? `${currentLang() === 'zh-CN' ? '：' : ': '}${local(ind.label)}` : ''}
                </span>
              </h3>
              <p style={{ color: 'var(--muted)' }}>{t('result.score', { score: ind.score })}</p>
              {local(ind.interpretation) && <p>{local(ind.interpretation)}</p>}
              {local(ind.advice) && <p>{local(ind.advice)}</p>}
            </div>
          ))}
        </section>
      ))}
      <p className="r-center">{t('result.close')}</p>
    </Screen>
  );
}

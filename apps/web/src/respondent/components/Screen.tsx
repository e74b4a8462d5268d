import { useEffect, useRef, type ReactNode } from 'react';
import { setLang, t, useLang } from '../i18n';

/**
 * One screen of the respondent flow: the institution's name and the language switch on top,
 * then one heading that takes the focus when the screen changes (a screen reader announces the
 * new step; a keyboard user starts from it), then the screen's content.
 */
export function Screen({
  heading,
  brand,
  progress,
  children,
  focusKey,
}: {
  heading: string;
  brand?: string;
  progress?: ReactNode;
  children: ReactNode;
  focusKey?: string | number;
}) {
  const lang = useLang();
  const h1 = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    h1.current?.focus();
    document.title = `${heading} - ${t('title')}`;
  }, [heading, focusKey]);
  return (
    <div className="r-page">
      <header className="r-top">
        <span className="r-brand">{brand || t('title')}</span>
        <button
          type="button"
          className="r-btn secondary small"
          lang={lang === 'zh-CN' ? 'en' : 'zh-CN'}
          aria-label={t('languageLabel')}
          onClick={() => setLang(lang === 'zh-CN' ? 'en-US' : 'zh-CN')}
          data-testid="r-lang"
        >
          {t('language')}
        </button>
      </header>
      <main className="r-main">
        {progress}
        <h1 className="r-h1" tabIndex={-1} ref={h1}>
          {heading}
        </h1>
        {children}
      </main>
    </div>
  );
}

/**
 * "Question 3 of 9" with a bar; the bar is a progressbar for assistive technology. `caption`
 * is the line above it (which questionnaire of the plan this is).
 */
export function Progress({ label, value, max, caption }: { label: string; value: number; max: number; caption?: string }) {
  const pct = max > 0 ? Math.round((value / max) * 100) : 0;
  return (
    <div className="r-progress" data-testid="r-progress">
      {caption && <div className="r-progress-text">{caption}</div>}
      <div className="r-progress-text">{label}</div>
      <div className="r-progress-bar" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={max} aria-valuenow={value}>
        <div style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}

/** An error sentence, announced when it appears; with "try again" for network failures. */
export function ErrorBox({ message, onRetry }: { message: string | null; onRetry?: () => void }) {
  if (!message) return null;
  return (
    <div className="r-error" role="alert" data-testid="r-error">
      <div>{message}</div>
      {onRetry && (
        <button type="button" className="r-btn secondary" onClick={onRetry} data-testid="r-retry">
          {t('retry')}
        </button>
      )}
    </div>
  );
}

export function Loading() {
  return (
    <div className="r-spinner" role="status">
      {t('loading')}
    </div>
  );
}

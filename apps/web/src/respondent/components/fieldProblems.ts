import { useState } from 'react';
import { t, type MessageKey } from '../i18n';

/** What a form's checks found, field by field, in the order of the form. */
export type Found<F extends string> = Partial<Record<F, MessageKey>>;

/**
 * What a respondent form found wrong, field by field (message keys, shown in the page's language).
 * `report` shows what was found and takes the respondent to the first field to fix (the input with
 * its `data-field`), and answers whether the form may go on. `field(name)` gives a TextField or
 * RadioField its name, its problem sentence and that sentence's id, `<idPrefix><name>-problem`
 * (the prefix keeps the ids of two forms that name a field alike apart).
 */
export function useFieldProblems<F extends string>(idPrefix = '') {
  const [problems, setProblems] = useState<Found<F>>({});
  const report = (found: Found<F>) => {
    setProblems(found);
    const first = Object.keys(found)[0];
    if (first) document.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
    return !first;
  };
  const field = (name: F) => {
    const key = problems[name];
    return { name, problem: key ? t(key) : undefined, problemId: `${idPrefix}${name}-problem` };
  };
  return { report, field };
}

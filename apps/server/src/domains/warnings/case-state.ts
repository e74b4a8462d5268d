import { CaseStateName, enumLabel } from '@xinli/contract';
import { conflict } from '../../http/errors.js';

/** Refuses a step the case's state does not allow (the case resource and its follow-ups). */
export const wrongState = (state: string) =>
  conflict({
    zh: `个案当前状态（${stateText(state, false)}）不允许此操作`,
    en: `The case is ${stateText(state, true).toLowerCase()}; this step does not apply`,
  });
/** A case state as the console names it. */
export const stateText = (s: string, en: boolean) => enumLabel(CaseStateName, s, en ? 'en-US' : 'zh-CN');

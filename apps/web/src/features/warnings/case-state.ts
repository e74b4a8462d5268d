/**
 * The case workflow as the console offers it (DESIGN §9 "Warnings"): open → acknowledged →
 * followup → closed. Which steps a case in a state offers; the server checks them again.
 */
import type { CaseState } from '@xinli/contract';

export type CaseStep = 'acknowledge' | 'startFollowUp' | 'close';

export const CASE_STATES: CaseState[] = ['open', 'acknowledged', 'followup', 'closed'];

/** The state changes a case in `state` offers, in workflow order. */
export function nextSteps(state: CaseState): CaseStep[] {
  switch (state) {
    case 'open':
      return ['acknowledge', 'startFollowUp', 'close'];
    case 'acknowledged':
      return ['startFollowUp', 'close'];
    case 'followup':
      return ['close'];
    case 'closed':
      return [];
  }
}

/** A case still being worked (follow-ups, assignment and rescreening are offered). */
export const isActive = (state: CaseState) => state !== 'closed';

/** The state tab of the list: '' (not closed, the server's default), one state, or 'all'. */
export type StateTab = '' | CaseState | 'all';

export function parseStateTab(raw: string | null): StateTab {
  if (raw === 'all' || (raw && (CASE_STATES as string[]).includes(raw))) return raw as StateTab;
  return '';
}

import type { HandlerMap } from '../../http/handlers.js';
import { notImplemented } from './stub.js';

/** Showing or hiding a group report (issue 14, part 4): owned by the group-report change. */
export const reportVisibilityHandlers = {
  'as.m.assess.showOrHiddenTeamReport': async () => notImplemented(),
} satisfies HandlerMap;

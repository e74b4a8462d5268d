import type { HandlerMap } from '../../http/handlers.js';
import { accountOptions } from '../accounts/index.js';

/** At most this many accounts in a picker; only the super account could see more. */
const MAX_OPTIONS = 500;

export const institutionHandlers = {
  'as.m.system.muser.selectInstitutionList': async (_input, ctx) => accountOptions(ctx.db, ctx.me, MAX_OPTIONS),
} satisfies HandlerMap;

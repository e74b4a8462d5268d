import { asc, sql } from 'drizzle-orm';
import type { HandlerMap } from '../../http/handlers.js';
import { muser } from '../accounts/tables.js';
import { scopeWhere } from '../auth/index.js';

/** At most this many accounts in a picker; only the super account could see more. */
const MAX_OPTIONS = 500;

export const institutionHandlers = {
  'as.m.system.muser.selectInstitutionList': async (_input, ctx) => {
    const me = ctx.me;
    return ctx.db
      .select({ musercode: muser.musercode, insname: muser.insname, musertype: muser.musertype })
      .from(muser)
      .where(scopeWhere(muser.musercode, me))
      .orderBy(sql`${muser.musercode} = ${me.musercode} desc`, asc(muser.musercode))
      .limit(MAX_OPTIONS);
  },
} satisfies HandlerMap;

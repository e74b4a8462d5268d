import type { Lang } from '@xinli/contract';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { writeAudit, type AuditEntry } from '../domains/audit/audit.js';
import { AppError, type Message } from './errors.js';

/** The signed-in caller, resolved from the token on every request. */
export interface Caller {
  tokenhash: string;
  /** The institution the session acts for. */
  musercode: string;
  /** Set for staff sub-accounts. */
  userid: string | null;
  /** The provider that acted as this institution (login-as), else null. */
  actor: string | null;
  /** The provider's staff user that opened this login-as session, else null. */
  actoruserid: string | null;
  musertype: string;
  issuper: boolean;
  codes: Set<string>;
  roles: string[];
  /** Institutions whose data this caller may see: its own, its institutions if a provider; all for super. */
  scope: string[] | 'all';
}

/** A respondent (the as.c.* channel): one given assessment, nothing else. */
export interface RespondentCaller {
  assesscode: string;
  musercode: string;
  cusercode: string;
}

type AuditInput = Omit<AuditEntry, 'at' | 'ip' | 'requestid' | 'musercode' | 'userid' | 'actor'> &
  Partial<Pick<AuditEntry, 'musercode' | 'userid' | 'actor'>>;

export interface Ctx {
  db: Db;
  config: Config;
  now(): Date;
  lang: Lang;
  ip: string;
  requestId: string;
  /** Aborted when the client goes away before its answer is complete (kit/client-gone.ts); never, outside a request. */
  signal: AbortSignal;
  caller: Caller | null;
  /** Set only for respondent actions (access 'respondent'), which have no staff caller. */
  respondent?: RespondentCaller | null;
  /** The caller of a signed-in action (throws for anonymous calls). */
  readonly me: Caller;
  t(msg: Message): string;
  /** Appends to the audit log; who and where default to the caller of this request. */
  audit(entry: AuditInput): Promise<void>;
}

export function createCtx(base: Omit<Ctx, 'me' | 't' | 'audit' | 'signal'> & { signal?: AbortSignal }): Ctx {
  return {
    ...base,
    signal: base.signal ?? new AbortController().signal,
    get me(): Caller {
      if (!base.caller) throw new AppError('identityInvalid');
      return base.caller;
    },
    t: (msg) => (base.lang === 'en-US' ? msg.en : msg.zh),
    audit: (entry) =>
      writeAudit(base.db, {
        musercode: base.caller?.musercode ?? base.respondent?.musercode ?? '',
        userid: base.caller?.userid ?? null,
        actor: base.caller?.actor ?? null,
        ...entry,
        at: base.now(),
        ip: base.ip,
        requestid: base.requestId,
      }),
  };
}

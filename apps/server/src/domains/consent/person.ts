import { and, desc, eq, isNotNull } from 'drizzle-orm';
import type { ConsentRecordOut } from './out.js';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { conflict } from '../../http/errors.js';
import { iso, newId } from '../../kit/index.js';
import type { FileStorage } from '../../kit/storage/index.js';
import { fileUrls, removeFiles } from '../files/index.js';
import { personInScope } from '../persons/index.js';
import { actorNames } from '../system/index.js';
import { consentStanding, withdrawnAmong } from './state.js';
import { consentRecord } from './tables.js';

/**
 * A person's consents on the console: their standing and records, withdrawal by staff, and what
 * other domains need (the person's export lists them; erasure removes the guardian's identity).
 */

/** Every consent record of a person, newest first, with where a guardian's signature is served. */
async function recordsOf(db: DbOrTx, cusercode: string): Promise<ConsentRecordOut[]> {
  const rows = await db
    .select()
    .from(consentRecord)
    .where(eq(consentRecord.cusercode, cusercode))
    .orderBy(desc(consentRecord.round), desc(consentRecord.at), desc(consentRecord.consentid));
  const urls = await fileUrls(
    db,
    rows.map((r) => r.signaturefileid),
  );
  const nameOf = await actorNames(db, rows.map((r) => r.recordedby));
  return rows.map((r) => ({
    consentid: r.consentid,
    kind: r.kind as ConsentRecordOut['kind'],
    via: r.via as ConsentRecordOut['via'],
    noticeversion: r.noticeversion,
    noticehash: r.noticehash,
    assesscode: r.assesscode,
    guardianname: r.guardianname,
    relation: r.relation,
    signatureurl: r.signaturefileid ? (urls.get(r.signaturefileid) ?? null) : null,
    teamname: r.teamname,
    reason: r.reason,
    recordedby: r.recordedby,
    recordedbyname: r.recordedby ? nameOf(r.recordedby) : null,
    at: iso(r.at),
  }));
}

/** A person's consent records (the person in scope of the caller; else "not found"): for the person's export. */
export async function consentsOfPerson(ctx: Ctx, cusercode: string): Promise<ConsentRecordOut[]> {
  await personInScope(ctx, ctx.db, cusercode);
  return recordsOf(ctx.db, cusercode);
}

/**
 * Erasure (PIPL Art. 47): removes the identity the consents hold, the guardian's name and the
 * signature file, inside the caller's transaction; what was agreed to and when stays.
 */
export async function eraseConsentIdentity(tx: DbOrTx, cusercode: string, storage?: FileStorage): Promise<{ signatures: number }> {
  const rows = await tx
    .select({ fileid: consentRecord.signaturefileid })
    .from(consentRecord)
    .where(and(eq(consentRecord.cusercode, cusercode), isNotNull(consentRecord.signaturefileid)));
  await tx.update(consentRecord).set({ guardianname: null, signaturefileid: null }).where(eq(consentRecord.cusercode, cusercode));
  const fileids = rows.map((r) => r.fileid!);
  // Without the store a signature could not go: refuse, rather than leave it behind unseen.
  if (fileids.length && !storage) throw new Error('eraseConsentIdentity: signature files need the file store');
  return { signatures: storage ? await removeFiles(tx, storage, fileids) : 0 };
}

const recorder = (ctx: Ctx) => ctx.me.userid ?? ctx.me.musercode;

export const personConsentHandlers = {
  'as.m.consent.getPersonConsent': async ({ cusercode }, ctx) => {
    const person = await personInScope(ctx, ctx.db, cusercode);
    const s = await consentStanding(ctx.db, person.musercode, cusercode, ctx.now());
    return {
      cusercode,
      state: s.state,
      minor: s.minor,
      minorby: s.minorby,
      noticeversion: s.noticeversion,
      records: await recordsOf(ctx.db, cusercode),
    };
  },

  'as.m.consent.withdrawConsent': async ({ cusercode, reason, byguardian }, ctx) => {
    const person = await personInScope(ctx, ctx.db, cusercode);
    const [made] = await ctx.db
      .insert(consentRecord)
      .values({
        consentid: newId('CN'),
        musercode: person.musercode,
        cusercode,
        kind: 'withdrawal',
        via: 'staff',
        relation: byguardian ? 'guardian' : null,
        reason,
        recordedby: recorder(ctx),
        at: ctx.now(),
      })
      .onConflictDoNothing()
      .returning({ consentid: consentRecord.consentid });
    if (!made) conflict({ zh: '此人的同意已撤回', en: 'This person’s consent has already been withdrawn' });
    await ctx.audit({ musercode: person.musercode, result: 'ok', detail: { cusercode, consentid: made!.consentid, byguardian } });
    return null;
  },

  // A renewal opens the person's next round (the trigger numbers it): the notice, and a minor's
  // guardian, are asked again; the unique index lets one of two renewals at once through.
  'as.m.consent.renewConsent': async ({ cusercode, reason }, ctx) => {
    const person = await personInScope(ctx, ctx.db, cusercode);
    const consentid = await ctx.db.transaction(async (tx) => {
      if (!(await withdrawnAmong(tx, [cusercode])).has(cusercode))
        conflict({ zh: '此人的同意没有撤回，无需重新同意', en: 'This person’s consent is not withdrawn, so there is nothing to renew' });
      const [made] = await tx
        .insert(consentRecord)
        .values({ consentid: newId('CN'), musercode: person.musercode, cusercode, kind: 'renewal', via: 'staff', reason, recordedby: recorder(ctx), at: ctx.now() })
        .onConflictDoNothing()
        .returning({ consentid: consentRecord.consentid });
      if (!made) conflict({ zh: '此人的重新同意已登记', en: 'This person’s renewed consent has already been recorded' });
      return made!.consentid;
    });
    await ctx.audit({ musercode: person.musercode, result: 'ok', detail: { cusercode, consentid } });
    return null;
  },
} satisfies HandlerMap;

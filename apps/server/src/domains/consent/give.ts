import type { Ctx, RespondentCaller } from '../../http/context.js';
import { conflict } from '../../http/errors.js';
import { newId, placeholderRow, preparedOnce, rowValues } from '../../kit/index.js';
import { readPngUpload } from '../../kit/upload/image.js';
import { storageOf, storeFile } from '../files/index.js';
import { keptNotice, type Notice } from './notice.js';
import { consentRecord } from './tables.js';

/**
 * Consent given on the respondent's phone: the person agrees to the notice version shown, or a
 * guardian consents for a child under 14 with their name, relation and drawn signature. Each is
 * recorded with what was shown (version and hash), when, for which person and code, and audited.
 */

/**
 * The notice shown must still be the current one: a notice changed meanwhile is read again.
 * `current`: the current notice as this request has already read it.
 */
async function shownNotice(ctx: Ctx, musercode: string, version: number, current?: Notice): Promise<Notice> {
  const notice = current ?? (await keptNotice(ctx.db, musercode));
  if (notice.version !== version)
    conflict({ zh: '机构的告知内容已更新，请重新阅读后再同意', en: 'The institution’s notice has changed; please read it again before agreeing' });
  return notice;
}

/** A respondent's agreement to the notice: built once, as every respondent of a screening agrees. */
const AGREEMENT_COLUMNS = ['consentid', 'musercode', 'cusercode', 'noticeversion', 'noticehash', 'assesscode', 'at'] as const;
const insertAgreement = preparedOnce('notice_agreement', (db, name) =>
  db
    .insert(consentRecord)
    .values({ ...placeholderRow(AGREEMENT_COLUMNS), kind: 'notice', via: 'phone' })
    .onConflictDoNothing()
    .returning({ consentid: consentRecord.consentid })
    .prepare(name),
);

/**
 * The respondent agrees to the notice version shown (a second agreement to it changes nothing).
 * `current`: the institution's current notice when this request has read it already (noticeAndWithdrawal).
 */
export async function agreeToNotice(ctx: Ctx, r: RespondentCaller, version: number, current?: Notice): Promise<void> {
  const notice = await shownNotice(ctx, r.musercode, version, current);
  const row = { consentid: newId('CN'), musercode: r.musercode, cusercode: r.cusercode, noticeversion: notice.version, noticehash: notice.hash, assesscode: r.assesscode, at: ctx.now() };
  const [made] = await insertAgreement(ctx.db).execute(rowValues(AGREEMENT_COLUMNS, [row]));
  if (made) await ctx.audit({ musercode: r.musercode, result: 'ok', detail: { cusercode: r.cusercode, assesscode: r.assesscode, noticeversion: notice.version } });
}

export interface GuardianConsent {
  version: number;
  guardianname: string;
  relation: string;
  /** The drawn signature, a PNG in base64 or a data URL. */
  signature: string;
}

/**
 * A guardian consents on the phone: the signature is stored as an image file, and the consent
 * counts as agreement to the notice version shown. The guardian's name goes to the record only,
 * never to the audit log.
 */
export async function giveGuardianConsent(ctx: Ctx, r: RespondentCaller, g: GuardianConsent): Promise<void> {
  const png = readPngUpload(g.signature);
  const notice = await shownNotice(ctx, r.musercode, g.version);
  const consentid = newId('CN');
  await ctx.db.transaction(async (tx) => {
    const file = await storeFile(tx, storageOf(ctx.config), { musercode: r.musercode, use: 'image', filename: `guardian-signature-${consentid}.png`, bytes: png, createdby: `respondent:${r.assesscode}`, now: ctx.now() });
    await tx.insert(consentRecord).values({
      consentid,
      musercode: r.musercode,
      cusercode: r.cusercode,
      kind: 'guardian',
      via: 'phone',
      noticeversion: notice.version,
      noticehash: notice.hash,
      assesscode: r.assesscode,
      guardianname: g.guardianname,
      relation: g.relation,
      signaturefileid: file.fileid,
      at: ctx.now(),
    });
  });
  await ctx.audit({ musercode: r.musercode, result: 'ok', detail: { cusercode: r.cusercode, assesscode: r.assesscode, consentid, noticeversion: notice.version, relation: g.relation } });
}

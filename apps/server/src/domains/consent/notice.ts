import { createHash } from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import type { LocalText } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { HandlerMap } from '../../http/handlers.js';
import { iso, referenceRead, type Bindable } from '../../kit/index.js';
import { accountInScope } from '../accounts/index.js';
import { consentNotice } from './tables.js';

/**
 * The institution's notice on sensitive personal information (PIPL Arts. 14, 17, 29, 30): what is
 * processed, for which purpose, who sees it, how long it is kept, the person's rights and whom to
 * ask. Version 0 is the platform's default, used until the institution writes its own.
 */
export const DEFAULT_NOTICE: LocalText = {
  zh: '本机构将处理你的心理测评答案、测评结果及出生日期、年级等个人信息，这些属于敏感个人信息。处理目的仅为了解你的心理健康状况并在需要时为你提供关心与帮助；只有本机构经授权的心理健康工作人员可以查看，不会用于其他目的，也不会向第三方提供（法律另有规定的除外）。记录按本机构的保存期限保存。你可以查阅、复制、更正你的记录，也可以撤回同意（撤回后不再为你安排测评，已形成的报告依法保留）；如有疑问，请联系为你安排测评的老师或工作人员。不满十四周岁的未成年人，须由父母或其他监护人同意。',
  en: 'This institution will process your answers and results of the mental-health assessment and personal information such as your birth date and school grade. This is sensitive personal information. It is processed only to understand your mental health and to offer you care and help when needed; only the authorised mental-health staff of this institution can see it, it is used for no other purpose and not given to third parties unless the law requires. Records are kept for the institution’s retention period. You may see, copy and correct your record, and you may withdraw your consent (no further assessments are then arranged for you; existing reports are kept as the law requires). If you have questions, ask the teacher or staff member who arranged the assessment. A child under 14 needs the consent of a parent or other guardian.',
};

export interface Notice {
  version: number;
  text: LocalText;
  hash: string;
  updatedat: Date | null;
}

/** SHA-256 of the two texts as shown: recorded with each consent as evidence of what was agreed to. */
export const noticeHash = (t: LocalText) => createHash('sha256').update(`${t.zh}\u0000${t.en}`).digest('hex');

/** The institution's newest notice row. */
const latestNoticeRow = (db: DbOrTx, musercode: Bindable<string>) =>
  db
    .select({ version: consentNotice.version, zh: consentNotice.zh, en: consentNotice.en, hash: consentNotice.hash, createdat: consentNotice.createdat })
    .from(consentNotice)
    .where(eq(consentNotice.musercode, musercode))
    .orderBy(desc(consentNotice.version))
    .limit(1);

type NoticeRow = Awaited<ReturnType<typeof latestNoticeRow>>[number];

/** The notice of the newest row, or the default as version 0 when the institution has none. */
function noticeOf(row: NoticeRow | undefined): Notice {
  if (!row) return { version: 0, text: DEFAULT_NOTICE, hash: noticeHash(DEFAULT_NOTICE), updatedat: null };
  return { version: row.version, text: { zh: row.zh, en: row.en }, hash: row.hash, updatedat: row.createdat };
}

/** The institution's current notice (its newest version), or the default as version 0. */
export async function currentNotice(db: DbOrTx, musercode: string): Promise<Notice> {
  const [row] = await latestNoticeRow(db, musercode);
  return noticeOf(row);
}

/**
 * currentNotice, kept by the process: every respondent step reads it (a thousand-character text
 * each time), and an institution writes a new version rarely, which is announced (migration 0053).
 */
export const keptNotice = referenceRead('consent_notice', (musercode: string) => musercode, currentNotice);

/** Writes a new version when the text differs from the current one (under a lock on the institution's notices). */
export async function writeNotice(db: DbOrTx, musercode: string, text: LocalText, by: string, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(30, hashtext(${musercode}))`);
    const current = await currentNotice(tx, musercode);
    const hash = noticeHash(text);
    if (current.hash === hash) return current.version;
    const version = current.version + 1;
    await tx.insert(consentNotice).values({ musercode, version, zh: text.zh, en: text.en, hash, createdby: by, createdat: now });
    return version;
  });
}

export const noticeHandlers = {
  'as.m.consent.getNotice': async ({ musercode }, ctx) => {
    await accountInScope(ctx, ctx.db, musercode);
    const n = await currentNotice(ctx.db, musercode);
    return { musercode, version: n.version, zh: n.text.zh, en: n.text.en, isdefault: n.version === 0, updatedat: n.updatedat ? iso(n.updatedat) : null };
  },

  'as.m.consent.saveNotice': async ({ musercode, zh, en }, ctx) => {
    await accountInScope(ctx, ctx.db, musercode);
    const version = await writeNotice(ctx.db, musercode, { zh, en }, ctx.me.userid ?? ctx.me.musercode, ctx.now());
    await ctx.audit({ musercode, result: 'ok', detail: { target: musercode, version } });
    return { version };
  },
} satisfies HandlerMap;

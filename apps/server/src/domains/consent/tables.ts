import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { muser } from '../accounts/tables.js';
import { storedFile } from '../files/tables.js';
import { cuser } from '../persons/tables.js';

/**
 * An institution's notice on sensitive personal information (issue 30 §4), one row per version:
 * a new text is a new version, so what each respondent agreed to stays known. `hash` is the
 * SHA-256 of the two texts, recorded with each consent.
 */
export const consentNotice = pgTable(
  'consent_notice',
  {
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    version: integer().notNull(),
    zh: text().notNull(),
    en: text().notNull(),
    hash: text().notNull(),
    createdby: text().notNull(),
    createdat: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.musercode, t.version] }), check('consent_notice_version_check', sql`${t.version} >= 1`)],
);

/**
 * A person's consent records, kept (never updated) as evidence:
 * - notice: the person agreed to a notice version (what was shown: version and hash; when; which code);
 * - guardian: a guardian consented for a child under 14, on the phone (name, relation, signature
 *   file) or by the institution's class consent sheet (teamid, recordedby);
 * - withdrawal: the person or their guardian withdrew consent (recordedby, reason); from then on no
 *   assessment step of the person is accepted;
 * - renewal: the person consented again after a withdrawal, recorded by staff (recordedby, reason).
 * `round` counts the person's renewals up to the record (set by a trigger, never by the caller):
 * only the latest round decides, so after a renewal the notice and a minor's guardian are asked again.
 * Erasure (eraseConsentIdentity) clears the guardian's name and signature, the only identity here.
 */
export const consentRecord = pgTable(
  'consent_record',
  {
    consentid: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    cusercode: text()
      .notNull()
      .references(() => cuser.cusercode, { onDelete: 'cascade' }),
    kind: text().notNull(),
    via: text().notNull(),
    noticeversion: integer(),
    noticehash: text(),
    assesscode: text(),
    guardianname: text(),
    relation: text(),
    signaturefileid: text().references(() => storedFile.fileid, { onDelete: 'set null' }),
    teamid: text(),
    teamname: text(),
    reason: text(),
    recordedby: text(),
    at: timestamp({ withTimezone: true }).notNull(),
    round: integer().notNull().default(0),
  },
  (t) => [
    check('consent_record_kind_check', sql`${t.kind} in ('notice', 'guardian', 'withdrawal', 'renewal')`),
    check('consent_record_via_check', sql`${t.via} in ('phone', 'sheet', 'staff')`),
    // Asked once per person per notice version and round: a second agreement (two taps) is refused by the index.
    uniqueIndex('consent_record_notice_idx').on(t.cusercode, t.noticeversion, t.round).where(sql`${t.kind} = 'notice'`),
    // One withdrawal per round, and one renewal opening each round (two at once: one is refused).
    uniqueIndex('consent_record_withdrawal_idx').on(t.cusercode, t.round).where(sql`${t.kind} = 'withdrawal'`),
    uniqueIndex('consent_record_renewal_idx').on(t.cusercode, t.round).where(sql`${t.kind} = 'renewal'`),
    index('consent_record_person_idx').on(t.cusercode, t.at),
    index('consent_record_muser_idx').on(t.musercode, t.at),
  ],
);

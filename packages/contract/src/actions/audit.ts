import { z } from 'zod';
import { action, codes, idString, pageFields, pageOf, text } from '../catalogue-kit.js';
import type { EnumItem } from '../enums.js';

/**
 * The audit log page (auditLog 000314, under permission management; issue 30 §2): entries of the
 * caller's institutions (a provider: its institutions'; the super account: all), one entry's
 * detail, export (itself audited) and verification of the hash chain. An entry is named on the
 * wire by its hash (`auditid`): unique, and it says nothing about how many entries exist.
 */
const AUDIT = codes('000314');

export const auditResults = ['ok', 'fail', 'denied', 'locked'] as const;
export const auditResult = z.enum(auditResults);
/** The outcomes in words (list, filter, export). */
export const AuditResult: EnumItem<(typeof auditResults)[number]>[] = [
  { value: 'ok', zh: '成功', en: 'Succeeded' },
  { value: 'fail', zh: '失败', en: 'Failed' },
  { value: 'denied', zh: '无权限', en: 'Denied' },
  { value: 'locked', zh: '已锁定', en: 'Locked' },
];

const auditFilters = {
  musercode: idString.optional(),
  /** From / before (YYYY-MM-DD, China calendar). */
  datefrom: z.iso.date().optional(),
  dateto: z.iso.date().optional(),
  /** Who: an account's or staff user's sign-in name or code (exact). */
  account: text(64).optional(),
  /** The action name (`as.m.user.login`), exact. */
  action: text(120).optional(),
  result: auditResult.optional(),
  /** An object id anywhere in the entry's detail (a person's code, an order, a report id). */
  object: text(64).optional(),
  /** The address, or its beginning (`10.0.`). */
  ip: text(45).optional(),
};

export const auditRow = z.object({
  auditid: z.string(),
  seq: z.int(),
  at: z.string(),
  musercode: z.string(),
  insname: z.string(),
  userid: z.string(),
  /** The staff user's sign-in name, else the account's. */
  username: z.string(),
  /** The provider that acted as the institution (login-as), else ''. */
  actor: z.string(),
  action: z.string(),
  result: auditResult,
  /** The objects the entry names (ids from its detail), for the list. */
  objects: z.string(),
  ip: z.string(),
});
export type AuditRow = z.infer<typeof auditRow>;

export const auditEntry = auditRow.extend({
  requestid: z.string(),
  /** What the action recorded: ids, counts, filters; never a credential or a full ID number. */
  detail: z.record(z.string(), z.unknown()),
  prevhash: z.string(),
  hash: z.string(),
});

export const chainCheck = z.object({
  whole: z.boolean(),
  /** Entries checked (from the anchor to the head). */
  checked: z.int(),
  /** The first broken link: the entry's place, time and why (null when the chain is whole). */
  broken: z
    .object({ seq: z.int(), at: z.string(), reason: z.enum(['hash', 'link', 'gap', 'head']) })
    .nullable(),
  /** Place of the newest entry the retention job removed (0: none removed). */
  anchorseq: z.int(),
});
export type ChainCheck = z.infer<typeof chainCheck>;

export const auditActions = {
  'as.m.audit.getAuditPage': action({
    access: AUDIT,
    kind: 'json',
    op: 'list',
    summary:
      'Audit entries of the caller’s institutions, newest first; filter by time, account, action, outcome, object and address.',
    input: z.strictObject({ ...auditFilters, ...pageFields }),
    output: pageOf(auditRow),
    ids: { musercode: 'muser' },
  }),
  'as.m.audit.getAuditEntry': action({
    access: AUDIT,
    kind: 'json',
    op: 'read',
    summary: 'One audit entry in scope with its detail, request id and hashes.',
    input: z.strictObject({ auditid: z.string().regex(/^[0-9a-f]{64}$/) }),
    output: auditEntry,
    ids: { auditid: 'audit' },
  }),
  'as.m.audit.exportAudit': action({
    access: AUDIT,
    kind: 'download',
    op: 'export',
    summary: 'The filtered audit entries as .xlsx (streamed, at most 100,000 rows; audited).',
    input: z.strictObject(auditFilters),
    output: z.unknown(),
    ids: { musercode: 'muser' },
  }),
  'as.m.audit.verifyAuditChain': action({
    access: AUDIT,
    kind: 'json',
    op: 'read',
    summary: 'Recomputes the whole hash chain from its anchor; answers that it is whole or its first broken link (place and time only).',
    input: z.strictObject({}),
    output: chainCheck,
  }),
};

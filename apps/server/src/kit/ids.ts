import { randomBytes } from 'node:crypto';

/**
 * The prefixes of generated object ids, one per kind of object, so that an id read in a log or a
 * support ticket says what it names. A new kind of object adds its prefix here (and nowhere else
 * may invent one), which keeps two domains from choosing the same letter.
 */
export const ID_PREFIXES = {
  /** institution or provider account (accounts) */
  M: 'account',
  /** department (system) */
  D: 'dept',
  /** role (system) */
  R: 'role',
  /** staff user (system) */
  U: 'sysuser',
  /** scale / form (scales) */
  F: 'form',
  /** norm of a form (scales) */
  NM: 'norm',
  /** score band, "quota option" (scales) */
  QO: 'quota option',
  /** exam stage (plans) */
  ST: 'stage',
  /** assessment plan (plans) */
  PL: 'plan',
  /** plan authorisation (plans) */
  PA: 'plan authorisation',
  /** completed assessment (assessments) */
  A: 'assessment',
  /** person assessed, cuser (persons) */
  C: 'person',
  /** staff comment on a report (reports) */
  RN: 'report comment',
  /** one committed roster import (persons) */
  IM: 'person import',
  /** consultation registration (consultation) */
  RG: 'registration',
  /** warning (warnings) */
  WN: 'warning',
  /** warning case (warnings) */
  WC: 'warning case',
  /** follow-up record (warnings) */
  WF: 'follow-up',
  /** console notification (warnings) */
  WM: 'notification',
  /** written (AI individual) report (reports/written) */
  WR: 'written report',
  /** team, a class or department (tasks) */
  TM: 'team',
  /** group assessment task (tasks) */
  TK: 'task',
  /** written summary of a group report (tasks/group-report) */
  GS: 'group summary',
  /** uploaded file (files) */
  FL: 'file',
  /** article (content) */
  AR: 'article',
  /** goods (orders) */
  GD: 'goods',
  /** order (orders) */
  OR: 'order',
  /** payment at a provider (orders) */
  PY: 'payment',
  /** relaxation-music track (content) */
  TR: 'track',
  /** cloud-classroom course (content) */
  CO: 'course',
  /** background job (kit/jobs) */
  J: 'job',
  /** consent record (consent) */
  CN: 'consent record',
  /** PDF zip export (reports/document) */
  RX: 'report export',
  /** custom report template (reports/custom) */
  RT: 'report template',
  /** version of a custom report template (reports/custom) */
  RV: 'report template version',
} as const;

export type IdPrefix = keyof typeof ID_PREFIXES;

/**
 * A new object id: the kind's prefix and 12 random upper-case hex digits (48 bits), e.g.
 * `D3F09A1C27B4E`. Ids are random, not sequential, so they reveal neither counts nor order.
 */
export const newId = (prefix: IdPrefix): string => `${prefix}${randomBytes(6).toString('hex').toUpperCase()}`;

/** n new ids of one kind, as newId makes them, from one draw of random bytes (a bulk insert's). */
export function newIds(prefix: IdPrefix, n: number): string[] {
  const hex = randomBytes(6 * n).toString('hex').toUpperCase();
  return Array.from({ length: n }, (_, i) => `${prefix}${hex.slice(i * 12, i * 12 + 12)}`);
}

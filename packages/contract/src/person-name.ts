/**
 * What a person's name may hold: one rule for every field that names a person (persons, roster
 * imports, the respondent's self-registration and consultation request, team members, staff users).
 *
 * - letters of any script (Chinese, Latin with accents, Cyrillic, Uyghur, kana …) and their marks;
 * - the middle dot of minority and foreign names in Chinese (买买提·艾力), with its look-alikes
 *   that input methods type (• ・ ‧);
 * - spaces, hyphens, apostrophes (' ’) and dots (J. R. Smith);
 * - digits after the first letter: rosters tell namesakes apart with them (张伟2), and imported
 *   rosters and test rosters carry such names;
 * - at most 50 characters after trimming; a name starts with a letter.
 * No emoji, control characters or other symbols: a name is printed on reports, rosters and
 * exports, and a stray symbol there is a typo or a paste, never part of the name.
 * The rule refuses; it never cuts or cleans a name silently.
 */
import { z } from 'zod';

export const PERSON_NAME_MAX = 50;

const NAME_PATTERN = /^\p{L}[\p{L}\p{M}\p{Nd}·•・‧'’.\- ]*$/u;

/** The rule in words; `key` is the issue message the schema carries, so a form or server can find it. */
export const NAME_RULE = {
  key: 'rule.personName',
  zh: `姓名须以文字开头，可含各语种文字（含中文）、间隔号“·”、空格、连字符“-”、撇号“'”、点“.”和数字；不能含表情符号或其他符号`,
  en: `A name starts with a letter and may hold letters of any script (Chinese included), the middle dot “·”, spaces, hyphens, apostrophes, dots and digits; no emoji or other symbols`,
} as const;

/** Rules whose sentence travels with the schema (the issue message is their key). */
export const ruleSentences: Record<string, { zh: string; en: string }> = { [NAME_RULE.key]: NAME_RULE };

/** A person's name of at most `max` characters (staff names are shorter: 30). */
export const personNameOf = (max = PERSON_NAME_MAX) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .regex(NAME_PATTERN, { message: NAME_RULE.key });

export const personName = personNameOf();

/** The rule's sentences when `value` (trimmed) breaks the character rule, else null; lengths are checked by the schema. */
export function personNameProblem(value: string): typeof NAME_RULE | null {
  const v = value.trim();
  return v && !NAME_PATTERN.test(v) ? NAME_RULE : null;
}

import { and, eq } from 'drizzle-orm';
import type { FormDefinition } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import { denied, fail, invalid, notFound } from '../../http/errors.js';
import { muser } from '../accounts/tables.js';
import { assertInScope } from '../auth/scope.js';
import { parseDefinition, ScoringError } from './scoring/index.js';
import { formReadable } from './store.js';
import { form } from './tables.js';

/** A form the caller may read; `write` also demands an own form (built-ins are read-only). */
export async function findForm(ctx: Ctx, db: DbOrTx, formcode: string, write: boolean) {
  const [row] = await db.select().from(form).where(and(eq(form.formcode, formcode), formReadable(ctx.me)));
  if (!row) return notFound({ zh: `量表不存在：${formcode}`, en: `No such form: ${formcode}` });
  if (write) {
    if (row.musercode === null) denied({ zh: '内置量表只读，请复制后再修改', en: 'Built-in scales are read-only: copy it to make changes' });
    assertInScope(ctx.me, row.musercode);
  }
  return row;
}

/**
 * Runs the scoring engine's definition check; its message (which names the faulty paths)
 * becomes a validation error, or a bad-import-file error for imports.
 */
export function checkDefinition(input: unknown, as: 'validation' | 'badImportFile' = 'validation'): FormDefinition {
  try {
    return parseDefinition(input);
  } catch (e) {
    if (e instanceof ScoringError) return as === 'validation' ? invalid(e.msg) : fail('badImportFile', e.msg);
    throw e;
  }
}

/**
 * An account the caller may act for. Scope alone is not enough for the super account (its scope
 * is 'all'), so the account must also exist: an unknown code is "not found", never a foreign-key
 * failure.
 */
export async function assertAccount(ctx: Ctx, db: DbOrTx, musercode: string): Promise<void> {
  assertInScope(ctx.me, musercode);
  if (ctx.me.scope !== 'all') return;
  const [row] = await db.select({ musercode: muser.musercode }).from(muser).where(eq(muser.musercode, musercode));
  if (!row) notFound();
}

/**
 * PostgreSQL text cannot hold the NUL character: a body carrying one is refused as bad input
 * here rather than failing in the database. (It would belong in the action route for all domains.)
 */
export function rejectNul(value: unknown): void {
  const walk = (v: unknown): boolean =>
    typeof v === 'string' ? v.includes('\u0000') : Array.isArray(v) ? v.some(walk) : v !== null && typeof v === 'object' ? Object.values(v).some(walk) : false;
  if (walk(value)) invalid({ zh: '输入包含不允许的字符（NUL）', en: 'The input contains a character that is not allowed (NUL)' });
}

/** Wraps a domain's handlers so every input passes rejectNul first. */
export function nulGuarded<M extends Record<string, (input: never, ctx: Ctx) => Promise<unknown>>>(map: M): M {
  return Object.fromEntries(
    Object.entries(map).map(([name, handler]) => [
      name,
      (input: never, ctx: Ctx) => {
        rejectNul(input);
        return handler(input, ctx);
      },
    ]),
  ) as M;
}

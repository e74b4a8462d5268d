import { and, eq } from 'drizzle-orm';
import type { FormDefinition } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import { denied, fail, invalid, notFound } from '../../http/errors.js';
import { assertInScope } from '../auth/index.js';
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

import { or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * A LIKE pattern that matches `value` anywhere, with `%`, `_` and `\` taken literally (escaped
 * with PostgreSQL's default LIKE escape character, the backslash).
 */
export function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The free-text filter of list actions: a case-insensitive "contains" on one column, or on any of
 * several (e.g. a Chinese and an English name). An empty or absent value filters nothing, so the
 * result can go straight into `and(...)`.
 */
export function contains(columns: AnyPgColumn | AnyPgColumn[], value: string | undefined): SQL | undefined {
  if (!value) return undefined;
  const pattern = containsPattern(value);
  const list = Array.isArray(columns) ? columns : [columns];
  return or(...list.map((column) => sql`${column} ilike ${pattern}`));
}

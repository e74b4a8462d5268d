import { getTableName, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * A column named with its table, for a subquery in the select list of a one-table select: drizzle
 * writes such a select's own columns bare, and a bare name inside the subquery would be the
 * subquery's own column (counting every row instead of the outer row's).
 */
export const outerColumn = (column: AnyPgColumn): SQL => sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/**
 * A value of a condition helper, or in a prepared statement its placeholder (`sql.placeholder`):
 * the helpers other domains share write the same SQL either way.
 */
export type Bindable<T> = T | Placeholder;

import { inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Caller } from '../../http/context.js';
import { notFound } from '../../http/errors.js';

/**
 * Tenant scoping (DESIGN §6): every query that touches an institution's rows passes its
 * musercode column through here, and an object outside the caller's scope is "not found".
 */
export function scopeWhere(column: AnyPgColumn, caller: Caller): SQL {
  if (caller.scope === 'all') return sql`true`;
  return inArray(column, caller.scope);
}

export function inScope(caller: Caller, musercode: string | null | undefined): boolean {
  if (!musercode) return false;
  return caller.scope === 'all' || caller.scope.includes(musercode);
}

export function assertInScope(caller: Caller, musercode: string | null | undefined): void {
  if (!inScope(caller, musercode)) notFound();
}

export function holds(caller: Caller, ...codes: string[]): boolean {
  return caller.roles.includes('admin') || codes.some((c) => caller.codes.has(c));
}

import type { SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { Message } from '../../http/errors.js';
import type { FileStorage } from '../../kit/storage/index.js';
import type { PersonRecord } from './persons.js';

/** One section of a person's record export: its title in both languages and how it is read. */
export interface RecordSection {
  key: string;
  title: Message;
  read(ctx: Ctx, person: PersonRecord): Promise<unknown>;
}

/**
 * What other domains keep about a person, for the person's rights (issue 30 §5): the sections of
 * their record, the erasers of the words and identity they hold, and their activity for the
 * retention period. Those domains read persons, so domains/index.ts hands these in rather than
 * persons importing them: each pair depends one way only.
 */
export interface PersonRightsHooks {
  /** Record sections after the profile and archive, in the export's order. */
  sections: RecordSection[];
  /** Run in the anonymisation's transaction; `storage` removes files that identify the person. */
  erasers: ((tx: DbOrTx, cusercode: string, storage?: FileStorage) => Promise<unknown>)[];
  /** Conditions true when the person (a code column) had activity since an instant. */
  activeSince: ((person: AnyPgColumn, since: Date) => SQL)[];
}

let hooks: PersonRightsHooks | null = null;

export function hookPersonRights(h: PersonRightsHooks) {
  hooks = h;
}

/** The hooks; refusing to go on without them, rather than export or erase only part of a record. */
export function personRightsHooks(): PersonRightsHooks {
  if (!hooks) throw new Error('persons: hookPersonRights was not called (domains/index.ts)');
  return hooks;
}

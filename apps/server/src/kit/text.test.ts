import { describe, expect, it } from 'vitest';
import { PgDialect, pgTable, text } from 'drizzle-orm/pg-core';
import { contains, containsPattern } from './text.js';

const t = pgTable('t', { a: text(), b: text() });
const render = (q: ReturnType<typeof contains>) => new PgDialect().sqlToQuery(q!);

describe('containsPattern', () => {
  it('takes %, _ and \\ literally', () => {
    expect(containsPattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
    expect(containsPattern('plain')).toBe('%plain%');
  });
});

describe('contains', () => {
  it('filters nothing for an empty or absent value', () => {
    expect(contains(t.a, undefined)).toBeUndefined();
    expect(contains(t.a, '')).toBeUndefined();
  });

  it('is a case-insensitive match with the value as a parameter, never in the SQL text', () => {
    const q = render(contains(t.a, "x'; drop table t; --"));
    expect(q.sql).toBe('"t"."a" ilike $1');
    expect(q.params).toEqual(["%x'; drop table t; --%"]);
  });

  it('matches any of several columns', () => {
    const q = render(contains([t.a, t.b], '5%'));
    expect(q.sql).toBe('("t"."a" ilike $1 or "t"."b" ilike $2)');
    expect(q.params).toEqual(['%5\\%%', '%5\\%%']);
  });
});

import { expect } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import type { ActionName } from '@xinli/contract';
import type { TestServer } from '../../test/harness.js';

/**
 * What the statistics tests (statistics.test.ts, bureau.test.ts) share: the oracle's raw rows
 * (plain SQL over the tables, sharing no code with the handlers) and a signed-in user's call that
 * must succeed, on the server the test started.
 */
export function oracle(server: () => TestServer, tokens: Record<string, string>) {
  return {
    rows: async <T = Record<string, unknown>>(q: SQL) => ((await server().database.db.execute(q)) as unknown as { rows: T[] }).rows,
    call: async (user: string, name: ActionName, body: object) => {
      const res = await server().call(name, body, tokens[user]);
      expect(res.errorCode, `${user} ${name} ${res.errorMsg}`).toBe(0);
      return res.data as any;
    },
  };
}

/** Who the education bureau's statistics cover, written out by hand: itself and the schools of its district (Binjiang, 330108). */
export const BUREAU_COVERS = sql`(m.musercode = 'I0005' or (m.musertype = '001' and m.districtcode = '330108'))`;

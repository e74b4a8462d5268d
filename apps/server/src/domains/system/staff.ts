import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { sysuser } from './tables.js';

export interface StaffBrief {
  userid: string;
  musercode: string;
  realname: string;
  sysusername: string;
  enabled: boolean;
}

/** Staff users by id (other domains name assignees and authors through this, not the sysuser table). */
export async function staffBriefs(db: DbOrTx, userids: Iterable<string>): Promise<Map<string, StaffBrief>> {
  const ids = [...new Set(userids)].filter(Boolean);
  if (!ids.length) return new Map();
  const rows = await db
    .select({ userid: sysuser.userid, musercode: sysuser.musercode, realname: sysuser.realname, sysusername: sysuser.sysusername, enabled: sysuser.enabled })
    .from(sysuser)
    .where(inArray(sysuser.userid, ids));
  return new Map(rows.map((r) => [r.userid, { ...r, enabled: r.enabled === 1 }]));
}

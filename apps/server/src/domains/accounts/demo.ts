import { eq, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { appsOf } from '../apps/index.js';
import { ensureEntry } from './entry.js';
import { muser, muserEntry } from './tables.js';

/**
 * Every demo institution has its respondent entry, so its link and QR code are there on first
 * start (服务商管理 → 机构管理 → 答题入口). It offers the institution's own apps and all their
 * stages; results stay with staff, and the hotline is the national psychological assistance line.
 */
export async function seedDemoEntries(db: DbOrTx, base: string, now: Date): Promise<void> {
  const institutions = await db.select({ musercode: muser.musercode, insname: muser.insname }).from(muser).where(ne(muser.musertype, '005'));
  for (const account of institutions) {
    await ensureEntry(db, base, account, now);
    const apps = await appsOf(db, account.musercode);
    await db
      .update(muserEntry)
      .set({
        title: `${account.insname}心理测评`,
        welcome: '欢迎参加心理健康测评。请根据最近两周的真实感受作答，没有对错之分。',
        consent: '你的回答只用于本机构的心理健康服务，由专业人员依法保密保管。作答即表示你同意参加本次测评。',
        appids: apps.map((a) => a.appid),
        hotline: '12356',
        updatedat: now,
      })
      .where(eq(muserEntry.musercode, account.musercode));
  }
}

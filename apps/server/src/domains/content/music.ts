import { and, asc, eq } from 'drizzle-orm';
import type { TrackRow } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { notFound } from '../../http/errors.js';
import { contains, iso, newId, paged } from '../../kit/index.js';
import { accountNames, ownedBy, ownerAccount } from '../accounts/index.js';
import { scopeWhere } from '../auth/index.js';
import { fileUrls, setFileUses } from '../files/index.js';
import { checkRefs } from './media-refs.js';
import { track } from './media-tables.js';

type TrackRecord = typeof track.$inferSelect;

const noSuchTrack = () => notFound({ zh: '音乐不存在', en: 'No such track' });

async function tracksOut(db: DbOrTx, rows: TrackRecord[]): Promise<TrackRow[]> {
  const [names, files] = await Promise.all([
    accountNames(
      db,
      rows.map((r) => r.musercode),
    ),
    fileUrls(
      db,
      rows.flatMap((r) => [r.audiofileid, r.coverfileid]),
    ),
  ]);
  return rows.map((r) => ({
    trackid: r.trackid,
    musercode: r.musercode,
    insname: names.get(r.musercode) ?? '',
    title: r.title,
    audiofileid: r.audiofileid,
    audiourl: files.get(r.audiofileid) ?? '',
    coverfileid: r.coverfileid ?? '',
    coverurl: r.coverfileid ? (files.get(r.coverfileid) ?? '') : '',
    sort: r.sort,
    enabled: r.enabled as 0 | 1,
    appids: r.appids,
    createdat: iso(r.createdat),
  }));
}

async function trackInScope(ctx: Ctx, trackid: string): Promise<TrackRecord> {
  const [row] = await ctx.db
    .select()
    .from(track)
    .where(and(eq(track.trackid, trackid), scopeWhere(track.musercode, ctx.me)));
  return row ?? noSuchTrack();
}

const trackFiles = (t: { audiofileid: string; coverfileid: string }) => [
  { fileid: t.audiofileid, use: 'audio' as const },
  ...(t.coverfileid ? [{ fileid: t.coverfileid, use: 'image' as const }] : []),
];

export interface NewTrack {
  musercode: string;
  title: string;
  audiofileid: string;
  coverfileid?: string;
  sort?: number;
  enabled?: 0 | 1;
  appids?: string[];
  now: Date;
}

/** Adds a track through the checks of the console (also the demo seed's way in). */
export async function storeTrack(db: DbOrTx, t: NewTrack): Promise<string> {
  const v = { coverfileid: '', sort: 0, enabled: 1 as const, appids: [], ...t };
  await checkRefs(db, v.musercode, trackFiles(v), v.appids);
  const trackid = newId('TR');
  await db.transaction(async (tx) => {
    await tx.insert(track).values({ ...v, trackid, coverfileid: v.coverfileid || null, createdat: v.now, updatedat: v.now });
    await setFileUses(
      tx,
      'track',
      trackid,
      trackFiles(v).map((f) => f.fileid),
    );
  });
  return trackid;
}

/** Music (relaxation tracks) of an institution: the list, adding, changing, enabling and deleting one. */
export const trackHandlers = {
  'as.m.music.getTrackPage': async ({ musercode, title, enabled, page, pageSize }, ctx) => {
    const where = and(
      ownedBy(ctx, track.musercode, musercode),
      contains(track.title, title),
      enabled === undefined ? undefined : eq(track.enabled, enabled),
    );
    const { total, rows } = await paged(
      ctx.db,
      ctx.db.select().from(track).where(where).$dynamic(),
      [asc(track.sort), asc(track.createdat), asc(track.trackid)],
      { page, pageSize },
    );
    return { total, rows: await tracksOut(ctx.db, rows) };
  },
  'as.m.music.insertTrack': async ({ musercode, ...t }, ctx) => {
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    const trackid = await storeTrack(ctx.db, { ...t, musercode: owner.musercode, now: ctx.now() });
    await ctx.audit({ result: 'ok', detail: { trackid, target: owner.musercode } });
    return { trackid };
  },
  'as.m.music.updateTrack': async ({ trackid, ...t }, ctx) => {
    const row = await trackInScope(ctx, trackid);
    await checkRefs(ctx.db, row.musercode, trackFiles(t), t.appids);
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(track)
        .set({ ...t, coverfileid: t.coverfileid || null, updatedat: ctx.now() })
        .where(eq(track.trackid, trackid));
      await setFileUses(
        tx,
        'track',
        trackid,
        trackFiles(t).map((f) => f.fileid),
      );
    });
    await ctx.audit({ result: 'ok', detail: { trackid } });
    return null;
  },
  'as.m.music.enableTrack': async ({ trackid, enabled }, ctx) => {
    await trackInScope(ctx, trackid);
    await ctx.db.update(track).set({ enabled, updatedat: ctx.now() }).where(eq(track.trackid, trackid));
    await ctx.audit({ result: 'ok', detail: { trackid, enabled } });
    return null;
  },
  'as.m.music.deleteTrack': async ({ trackid }, ctx) => {
    await trackInScope(ctx, trackid);
    await ctx.db.transaction(async (tx) => {
      await setFileUses(tx, 'track', trackid, []);
      await tx.delete(track).where(eq(track.trackid, trackid));
    });
    await ctx.audit({ result: 'ok', detail: { trackid } });
    return null;
  },
} satisfies HandlerMap;

import { and, asc, eq, inArray } from 'drizzle-orm';
import type { CourseRow, FileUse, TrackRow } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { invalid, notFound } from '../../http/errors.js';
import { contains, iso, newId, ownedBy, ownerAccount, paged } from '../../kit/index.js';
import { accountNames } from '../accounts/accounts.js';
import { appsOf } from '../apps/handlers.js';
import { scopeWhere } from '../auth/scope.js';
import { limitedEntry } from '../assessments/respondent.js';
import { resolveEntryToken } from '../assessments/entry.js';
import { fileUrl, fileUrlSigner, noSuchFile, setFileUses, SIGNED_USE, usableFiles } from '../files/files.js';
import { courseAccess } from '../orders/grants.js';
import { storedFile } from '../files/tables.js';
import { course, lesson, track } from './media-tables.js';

type TrackRecord = typeof track.$inferSelect;
type CourseRecord = typeof course.$inferSelect;

const noSuchTrack = () => notFound({ zh: '音乐不存在', en: 'No such track' });
const noSuchCourse = () => notFound({ zh: '课程不存在', en: 'No such course' });

async function urls(db: DbOrTx, ids: (string | null | undefined)[]): Promise<Map<string, string>> {
  return new Map([...(await mediaFiles(db, ids))].map(([id, f]) => [id, f.url]));
}

async function mediaFiles(
  db: DbOrTx,
  ids: (string | null | undefined)[],
): Promise<Map<string, { url: string; key: string; contenttype: string }>> {
  const list = [...new Set(ids.filter((x): x is string => !!x))];
  if (!list.length) return new Map();
  const rows = await db
    .select({ fileid: storedFile.fileid, key: storedFile.key, contenttype: storedFile.contenttype })
    .from(storedFile)
    .where(inArray(storedFile.fileid, list));
  return new Map(rows.map((r) => [r.fileid, { url: fileUrl(r.key), key: r.key, contenttype: r.contenttype }]));
}

/** The files must be the institution's own, ready and of their use; the apps the institution's own. */
async function checkRefs(db: DbOrTx, musercode: string, files: { fileid: string; use: FileUse | FileUse[] }[], appids: string[]) {
  const { bad, missing } = await usableFiles(db, musercode, files);
  if (missing) noSuchFile();
  if (bad) {
    const use = [files.find((f) => f.fileid === bad)!.use].flat()[0]!;
    const what = {
      image: ['图片', 'picture'],
      audio: ['音频', 'audio file'],
      video: ['视频（或音频）', 'video (or audio)'],
      pdf: ['PDF', 'PDF'],
      excel: ['Excel', 'Excel file'],
    }[use];
    invalid({ zh: `须为本机构已上传的${what[0]}`, en: `It must be a ${what[1]} uploaded by the institution` });
  }
  const own = new Set((await appsOf(db, musercode)).map((a) => a.appid));
  const beyond = appids.filter((a) => !own.has(a));
  if (beyond.length)
    invalid({ zh: `机构没有这些应用：${beyond.join(', ')}`, en: `The institution does not have these apps: ${beyond.join(', ')}` });
}

async function tracksOut(db: DbOrTx, rows: TrackRecord[]): Promise<TrackRow[]> {
  const [names, files] = await Promise.all([
    accountNames(
      db,
      rows.map((r) => r.musercode),
    ),
    urls(
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

async function coursesOut(db: DbOrTx, rows: CourseRecord[]): Promise<CourseRow[]> {
  const ids = rows.map((r) => r.courseid);
  const [names, files, lessons] = await Promise.all([
    accountNames(
      db,
      rows.map((r) => r.musercode),
    ),
    urls(
      db,
      rows.map((r) => r.coverfileid),
    ),
    ids.length ? db.select({ courseid: lesson.courseid }).from(lesson).where(inArray(lesson.courseid, ids)) : [],
  ]);
  const count = new Map<string, number>();
  for (const l of lessons) count.set(l.courseid, (count.get(l.courseid) ?? 0) + 1);
  return rows.map((r) => ({
    courseid: r.courseid,
    musercode: r.musercode,
    insname: names.get(r.musercode) ?? '',
    title: r.title,
    description: r.description,
    coverfileid: r.coverfileid ?? '',
    coverurl: r.coverfileid ? (files.get(r.coverfileid) ?? '') : '',
    sort: r.sort,
    enabled: r.enabled as 0 | 1,
    appids: r.appids,
    lessoncount: count.get(r.courseid) ?? 0,
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
async function courseInScope(ctx: Ctx, courseid: string): Promise<CourseRecord> {
  const [row] = await ctx.db
    .select()
    .from(course)
    .where(and(eq(course.courseid, courseid), scopeWhere(course.musercode, ctx.me)));
  return row ?? noSuchCourse();
}

const trackFiles = (t: { audiofileid: string; coverfileid: string }) => [
  { fileid: t.audiofileid, use: 'audio' as const },
  ...(t.coverfileid ? [{ fileid: t.coverfileid, use: 'image' as const }] : []),
];
const coverFiles = (c: { coverfileid: string }) => (c.coverfileid ? [{ fileid: c.coverfileid, use: 'image' as const }] : []);
// A lesson is a video, or a recorded talk (audio).
const lessonFiles = (c: { lessons: { videofileid: string }[] }) =>
  c.lessons.map((l) => ({ fileid: l.videofileid, use: ['video' as const, 'audio' as const] }));
const courseFiles = (c: { coverfileid: string; lessons: { videofileid: string }[] }) => [...coverFiles(c), ...lessonFiles(c)];

/**
 * Records the files a course uses: its cover as a 'course' use, its lessons' media as SIGNED_USE
 * uses, which the file route serves only by signed URLs that expire (a course may be sold).
 */
async function setCourseFiles(tx: DbOrTx, courseid: string, c: { coverfileid: string; lessons: { videofileid: string }[] }) {
  await setFileUses(
    tx,
    'course',
    courseid,
    coverFiles(c).map((f) => f.fileid),
  );
  await setFileUses(
    tx,
    SIGNED_USE,
    courseid,
    lessonFiles(c).map((f) => f.fileid),
  );
}

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

export interface NewCourse {
  musercode: string;
  title: string;
  description?: string;
  coverfileid?: string;
  sort?: number;
  enabled?: 0 | 1;
  appids?: string[];
  lessons: { title: string; videofileid: string }[];
  now: Date;
}

async function writeLessons(tx: DbOrTx, courseid: string, lessons: { title: string; videofileid: string }[]) {
  await tx.delete(lesson).where(eq(lesson.courseid, courseid));
  if (lessons.length)
    await tx.insert(lesson).values(lessons.map((l, i) => ({ courseid, lessonno: i + 1, title: l.title, videofileid: l.videofileid })));
}

/** Adds a course with its lessons (also the demo seed's way in). */
export async function storeCourse(db: DbOrTx, c: NewCourse): Promise<string> {
  const v = { description: '', coverfileid: '', sort: 0, enabled: 1 as const, appids: [], ...c };
  await checkRefs(db, v.musercode, courseFiles(v), v.appids);
  const courseid = newId('CO');
  await db.transaction(async (tx) => {
    const { lessons, ...fields } = v;
    await tx.insert(course).values({ ...fields, courseid, coverfileid: v.coverfileid || null, createdat: v.now, updatedat: v.now });
    await writeLessons(tx, courseid, lessons);
    await setCourseFiles(tx, courseid, v);
  });
  return courseid;
}

/** An institution's courses (all, or those of `courseids`), for goods that sell them (the orders domain). */
export async function coursesOfInstitution(db: DbOrTx, musercode: string, courseids?: string[]) {
  if (courseids && !courseids.length) return [];
  return db
    .select({ courseid: course.courseid, title: course.title, enabled: course.enabled })
    .from(course)
    .where(and(eq(course.musercode, musercode), courseids ? inArray(course.courseid, courseids) : undefined))
    .orderBy(asc(course.sort), asc(course.createdat));
}

const offeredTo = (appids: string[], entryApps: string[]) =>
  !appids.length || !entryApps.length || appids.some((a) => entryApps.includes(a));

export const mediaHandlers = {
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
    await ctx.audit({ action: 'as.m.music.insertTrack', result: 'ok', detail: { trackid, target: owner.musercode } });
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
    await ctx.audit({ action: 'as.m.music.updateTrack', result: 'ok', detail: { trackid } });
    return null;
  },
  'as.m.music.enableTrack': async ({ trackid, enabled }, ctx) => {
    await trackInScope(ctx, trackid);
    await ctx.db.update(track).set({ enabled, updatedat: ctx.now() }).where(eq(track.trackid, trackid));
    await ctx.audit({ action: 'as.m.music.enableTrack', result: 'ok', detail: { trackid, enabled } });
    return null;
  },
  'as.m.music.deleteTrack': async ({ trackid }, ctx) => {
    await trackInScope(ctx, trackid);
    await ctx.db.transaction(async (tx) => {
      await setFileUses(tx, 'track', trackid, []);
      await tx.delete(track).where(eq(track.trackid, trackid));
    });
    await ctx.audit({ action: 'as.m.music.deleteTrack', result: 'ok', detail: { trackid } });
    return null;
  },

  'as.m.course.getCoursePage': async ({ musercode, title, enabled, page, pageSize }, ctx) => {
    const where = and(
      ownedBy(ctx, course.musercode, musercode),
      contains(course.title, title),
      enabled === undefined ? undefined : eq(course.enabled, enabled),
    );
    const { total, rows } = await paged(
      ctx.db,
      ctx.db.select().from(course).where(where).$dynamic(),
      [asc(course.sort), asc(course.createdat), asc(course.courseid)],
      { page, pageSize },
    );
    return { total, rows: await coursesOut(ctx.db, rows) };
  },
  'as.m.course.getCourse': async ({ courseid }, ctx) => {
    const row = await courseInScope(ctx, courseid);
    const lessons = await ctx.db.select().from(lesson).where(eq(lesson.courseid, courseid)).orderBy(asc(lesson.lessonno));
    const [videos, signed] = await Promise.all([
      mediaFiles(
        ctx.db,
        lessons.map((l) => l.videofileid),
      ),
      fileUrlSigner(ctx.db, ctx.config, ctx.now()),
    ]);
    const [out] = await coursesOut(ctx.db, [row]);
    return {
      ...out!,
      lessons: lessons.map((l) => ({
        lessonno: l.lessonno,
        title: l.title,
        videofileid: l.videofileid,
        videourl: videos.has(l.videofileid) ? signed(videos.get(l.videofileid)!.key) : '',
      })),
    };
  },
  'as.m.course.insertCourse': async ({ musercode, ...c }, ctx) => {
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    const courseid = await storeCourse(ctx.db, { ...c, musercode: owner.musercode, now: ctx.now() });
    await ctx.audit({ action: 'as.m.course.insertCourse', result: 'ok', detail: { courseid, target: owner.musercode } });
    return { courseid };
  },
  'as.m.course.updateCourse': async ({ courseid, lessons, ...c }, ctx) => {
    const row = await courseInScope(ctx, courseid);
    await checkRefs(ctx.db, row.musercode, courseFiles({ coverfileid: c.coverfileid, lessons }), c.appids);
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(course)
        .set({ ...c, coverfileid: c.coverfileid || null, updatedat: ctx.now() })
        .where(eq(course.courseid, courseid));
      await writeLessons(tx, courseid, lessons);
      await setCourseFiles(tx, courseid, { coverfileid: c.coverfileid, lessons });
    });
    await ctx.audit({ action: 'as.m.course.updateCourse', result: 'ok', detail: { courseid } });
    return null;
  },
  'as.m.course.enableCourse': async ({ courseid, enabled }, ctx) => {
    await courseInScope(ctx, courseid);
    await ctx.db.update(course).set({ enabled, updatedat: ctx.now() }).where(eq(course.courseid, courseid));
    await ctx.audit({ action: 'as.m.course.enableCourse', result: 'ok', detail: { courseid, enabled } });
    return null;
  },
  'as.m.course.deleteCourse': async ({ courseid }, ctx) => {
    await courseInScope(ctx, courseid);
    await ctx.db.transaction(async (tx) => {
      await setCourseFiles(tx, courseid, { coverfileid: '', lessons: [] });
      await tx.delete(course).where(eq(course.courseid, courseid));
    });
    await ctx.audit({ action: 'as.m.course.deleteCourse', result: 'ok', detail: { courseid } });
    return null;
  },

  'as.c.content.getMedia': async ({ entrytoken, ordertokens }, ctx) =>
    limitedEntry(ctx, async () => {
      const entry =
        (await resolveEntryToken(ctx.db, entrytoken)) ??
        notFound({
          zh: '二维码已失效，请向机构索取新的二维码',
          en: 'This QR code is no longer valid; please ask the institution for a new one',
        });
      const [tracks, courses] = await Promise.all([
        ctx.db
          .select()
          .from(track)
          .where(and(eq(track.musercode, entry.musercode), eq(track.enabled, 1)))
          .orderBy(asc(track.sort), asc(track.createdat)),
        ctx.db
          .select()
          .from(course)
          .where(and(eq(course.musercode, entry.musercode), eq(course.enabled, 1)))
          .orderBy(asc(course.sort), asc(course.createdat)),
      ]);
      const shownTracks = tracks.filter((t) => offeredTo(t.appids, entry.appids));
      const shownCourses = courses.filter((c) => offeredTo(c.appids, entry.appids));
      const lessons = shownCourses.length
        ? await ctx.db
            .select()
            .from(lesson)
            .where(
              inArray(
                lesson.courseid,
                shownCourses.map((c) => c.courseid),
              ),
            )
            .orderBy(asc(lesson.courseid), asc(lesson.lessonno))
        : [];
      const files = await mediaFiles(ctx.db, [
        ...shownTracks.flatMap((t) => [t.audiofileid, t.coverfileid]),
        ...shownCourses.map((c) => c.coverfileid),
        ...lessons.map((l) => l.videofileid),
      ]);
      const url = (fileid: string | null) => (fileid ? (files.get(fileid)?.url ?? '') : '');
      // A course that goods sell, whatever their listing, is locked (lessons without their media) to
      // whoever has not bought it; lessons of an open one are signed URLs that expire.
      const [access, signed] = await Promise.all([
        courseAccess(ctx.db, entry.musercode, ordertokens),
        fileUrlSigner(ctx.db, ctx.config, ctx.now()),
      ]);
      const lessonUrl = (fileid: string) => (files.has(fileid) ? signed(files.get(fileid)!.key) : '');
      const insname = (await accountNames(ctx.db, [entry.musercode])).get(entry.musercode) ?? '';
      return {
        insname,
        title: entry.title,
        tracks: shownTracks.map((t) => ({
          trackid: t.trackid,
          title: t.title,
          audiourl: url(t.audiofileid),
          coverurl: url(t.coverfileid),
        })),
        courses: shownCourses.map((c) => {
          const bought = access.bought.has(c.courseid);
          const locked = access.sold.has(c.courseid) && !bought;
          return {
            courseid: c.courseid,
            title: c.title,
            description: c.description,
            coverurl: url(c.coverfileid),
            locked,
            bought,
            lessons: lessons
              .filter((l) => l.courseid === c.courseid)
              .map((l) => ({
                lessonno: l.lessonno,
                title: l.title,
                mediatype: files.get(l.videofileid)?.contenttype.startsWith('audio/') ? ('audio' as const) : ('video' as const),
                videourl: locked ? '' : lessonUrl(l.videofileid),
              })),
          };
        }),
      };
    }),
} satisfies HandlerMap;

import { and, asc, eq, inArray } from 'drizzle-orm';
import type { CourseRow } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { notFound } from '../../http/errors.js';
import { contains, iso, newId, paged } from '../../kit/index.js';
import { accountNames, ownedBy, ownerAccount } from '../accounts/index.js';
import { scopeWhere } from '../auth/index.js';
import { fileUrls, fileUrlSigner, servedFiles, setFileUses, SIGNED_USE } from '../files/index.js';
import { checkRefs } from './media-refs.js';
import { course, lesson } from './media-tables.js';

type CourseRecord = typeof course.$inferSelect;

const noSuchCourse = () => notFound({ zh: '课程不存在', en: 'No such course' });

async function coursesOut(db: DbOrTx, rows: CourseRecord[]): Promise<CourseRow[]> {
  const ids = rows.map((r) => r.courseid);
  const [names, files, lessons] = await Promise.all([
    accountNames(
      db,
      rows.map((r) => r.musercode),
    ),
    fileUrls(
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

async function courseInScope(ctx: Ctx, courseid: string): Promise<CourseRecord> {
  const [row] = await ctx.db
    .select()
    .from(course)
    .where(and(eq(course.courseid, courseid), scopeWhere(course.musercode, ctx.me)));
  return row ?? noSuchCourse();
}

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

/** Courses of an institution and their lessons: the list, one course, adding, changing, enabling and deleting one. */
export const courseHandlers = {
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
      servedFiles(
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
    await ctx.audit({ result: 'ok', detail: { courseid, target: owner.musercode } });
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
    await ctx.audit({ result: 'ok', detail: { courseid } });
    return null;
  },
  'as.m.course.enableCourse': async ({ courseid, enabled }, ctx) => {
    await courseInScope(ctx, courseid);
    await ctx.db.update(course).set({ enabled, updatedat: ctx.now() }).where(eq(course.courseid, courseid));
    await ctx.audit({ result: 'ok', detail: { courseid, enabled } });
    return null;
  },
  'as.m.course.deleteCourse': async ({ courseid }, ctx) => {
    await courseInScope(ctx, courseid);
    await ctx.db.transaction(async (tx) => {
      await setCourseFiles(tx, courseid, { coverfileid: '', lessons: [] });
      await tx.delete(course).where(eq(course.courseid, courseid));
    });
    await ctx.audit({ result: 'ok', detail: { courseid } });
    return null;
  },
} satisfies HandlerMap;

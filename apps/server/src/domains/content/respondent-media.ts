import { and, asc, eq, inArray } from 'drizzle-orm';
import type { HandlerMap } from '../../http/handlers.js';
import { notFound } from '../../http/errors.js';
import { accountNames } from '../accounts/index.js';
import { limitedEntry, resolveEntryToken } from '../assessments/index.js';
import { fileUrlSigner, servedFiles } from '../files/index.js';
import { courseAccess } from '../orders/index.js';
import { course, lesson, track } from './media-tables.js';

const offeredTo = (appids: string[], entryApps: string[]) =>
  !appids.length || !entryApps.length || appids.some((a) => entryApps.includes(a));

/** The respondent's media page: the tracks and courses offered through an entry, a sold course locked until bought. */
export const respondentMediaHandlers = {
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
      const files = await servedFiles(ctx.db, [
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

import { z } from 'zod';
import { action, codes, flag, idString, pageFields, pageOf, requiredText, text } from '../catalogue-kit.js';

/**
 * Relaxation music (musicManagement 00039) and the cloud classroom (cloudClassroom 00050): audio
 * tracks and courses of video (or audio) lessons, each with a cover, an order (sort), enabled, and the
 * population apps it is offered to. The media are files of the institution's file store; the
 * respondent page lists what is enabled for the apps of the institution's QR entry.
 */
const MUSIC = codes('00039');
const COURSES = codes('00050');

const appidsField = z
  .array(z.string().regex(/^[0-9]{9}$/))
  .max(5)
  .default([]);
const optionalFile = z.union([idString, z.literal('')]).default('');
const entrytoken = z
  .string()
  .trim()
  .min(16)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/);

export const trackRow = z.object({
  trackid: z.string(),
  musercode: z.string(),
  insname: z.string(),
  title: z.string(),
  audiofileid: z.string(),
  audiourl: z.string(),
  coverfileid: z.string(),
  coverurl: z.string(),
  sort: z.int(),
  enabled: flag,
  appids: z.array(z.string()),
  createdat: z.string(),
});
export type TrackRow = z.infer<typeof trackRow>;

const trackFields = {
  title: requiredText(100),
  audiofileid: idString,
  coverfileid: optionalFile,
  sort: z.int().min(0).max(9999).default(0),
  enabled: flag.default(1),
  appids: appidsField,
};

export const lessonIn = z.strictObject({ title: requiredText(100), videofileid: idString });
export const lessonOut = z.object({ lessonno: z.int(), title: z.string(), videofileid: z.string(), videourl: z.string() });

export const courseRow = z.object({
  courseid: z.string(),
  musercode: z.string(),
  insname: z.string(),
  title: z.string(),
  description: z.string(),
  coverfileid: z.string(),
  coverurl: z.string(),
  sort: z.int(),
  enabled: flag,
  appids: z.array(z.string()),
  lessoncount: z.int(),
  createdat: z.string(),
});
export type CourseRow = z.infer<typeof courseRow>;

const courseFields = {
  title: requiredText(100),
  description: text(1000).default(''),
  coverfileid: optionalFile,
  sort: z.int().min(0).max(9999).default(0),
  enabled: flag.default(1),
  appids: appidsField,
  lessons: z.array(lessonIn).max(100).default([]),
};

export const mediaActions = {
  'as.m.music.getTrackPage': action({
    access: MUSIC,
    kind: 'json',
    op: 'list',
    summary: 'Tracks of the caller’s institutions (or one musercode) in their order; filter by title and enabled.',
    input: z.strictObject({ musercode: idString.optional(), title: text(100).optional(), enabled: flag.optional(), ...pageFields }),
    output: pageOf(trackRow),
    ids: { musercode: 'muser' },
  }),
  'as.m.music.insertTrack': action({
    access: MUSIC,
    kind: 'json',
    op: 'write',
    summary:
      'Add a track (an audio file, optionally a cover image, of the institution’s file store) offered to some of the institution’s apps.',
    input: z.strictObject({ musercode: idString.optional(), ...trackFields }),
    output: z.object({ trackid: z.string() }),
    ids: { musercode: 'muser', audiofileid: 'file', coverfileid: 'file' },
  }),
  'as.m.music.updateTrack': action({
    access: MUSIC,
    kind: 'json',
    op: 'write',
    summary: 'Change a track in scope.',
    input: z.strictObject({ trackid: idString, ...trackFields }),
    output: z.null(),
    ids: { trackid: 'track', audiofileid: 'file', coverfileid: 'file' },
  }),
  'as.m.music.enableTrack': action({
    access: MUSIC,
    kind: 'json',
    op: 'write',
    summary: 'Enable (1) or disable (0) a track in scope; respondents see only enabled ones.',
    input: z.strictObject({ trackid: idString, enabled: flag }),
    output: z.null(),
    ids: { trackid: 'track' },
  }),
  'as.m.music.deleteTrack': action({
    access: MUSIC,
    kind: 'json',
    op: 'write',
    summary: 'Delete a track in scope (its files may then be deleted).',
    input: z.strictObject({ trackid: idString }),
    output: z.null(),
    ids: { trackid: 'track' },
  }),
  'as.m.course.getCoursePage': action({
    access: COURSES,
    kind: 'json',
    op: 'list',
    summary: 'Courses of the caller’s institutions (or one musercode) in their order; filter by title and enabled.',
    input: z.strictObject({ musercode: idString.optional(), title: text(100).optional(), enabled: flag.optional(), ...pageFields }),
    output: pageOf(courseRow),
    ids: { musercode: 'muser' },
  }),
  'as.m.course.getCourse': action({
    access: COURSES,
    kind: 'json',
    op: 'read',
    summary: 'One course in scope with its lessons in order (lesson media URLs signed, valid for 2 hours).',
    input: z.strictObject({ courseid: idString }),
    output: courseRow.extend({ lessons: z.array(lessonOut) }),
    ids: { courseid: 'course' },
  }),
  'as.m.course.insertCourse': action({
    access: COURSES,
    kind: 'json',
    op: 'write',
    summary:
      'Add a course with its lessons (videos, or audio, of the institution’s file store), offered to some of the institution’s apps.',
    input: z.strictObject({ musercode: idString.optional(), ...courseFields }),
    output: z.object({ courseid: z.string() }),
    ids: { musercode: 'muser', coverfileid: 'file', 'lessons.videofileid': 'file' },
  }),
  'as.m.course.updateCourse': action({
    access: COURSES,
    kind: 'json',
    op: 'write',
    summary: 'Change a course in scope; lessons, when given, replace its lessons in the order given.',
    input: z.strictObject({ courseid: idString, ...courseFields }),
    output: z.null(),
    ids: { courseid: 'course', coverfileid: 'file', 'lessons.videofileid': 'file' },
  }),
  'as.m.course.enableCourse': action({
    access: COURSES,
    kind: 'json',
    op: 'write',
    summary: 'Enable (1) or disable (0) a course in scope.',
    input: z.strictObject({ courseid: idString, enabled: flag }),
    output: z.null(),
    ids: { courseid: 'course' },
  }),
  'as.m.course.deleteCourse': action({
    access: COURSES,
    kind: 'json',
    op: 'write',
    summary: 'Delete a course in scope with its lessons.',
    input: z.strictObject({ courseid: idString }),
    output: z.null(),
    ids: { courseid: 'course' },
  }),
  'as.c.content.getMedia': action({
    access: 'public',
    kind: 'json',
    op: 'list',
    summary:
      'The enabled tracks and courses (with lessons) of the institution of a QR entry offered to the apps of that entry, in their order (rate-limited per address). A course that goods sell (whatever their listing) or an order was placed for is locked (lessons without their media) unless one of the buyer’s order tokens (kept by their page) paid for it. Lesson media URLs are signed and expire after 2 hours.',
    input: z.strictObject({
      entrytoken,
      ordertokens: z
        .array(z.string().regex(/^[0-9a-f]{48}$/))
        .max(50)
        .default([]),
    }),
    output: z.object({
      insname: z.string(),
      title: z.string(),
      tracks: z.array(z.object({ trackid: z.string(), title: z.string(), audiourl: z.string(), coverurl: z.string() })),
      courses: z.array(
        z.object({
          courseid: z.string(),
          title: z.string(),
          description: z.string(),
          coverurl: z.string(),
          /** Sold (by goods in any listing state, or ordered) and not bought with the tokens given: lessons are listed without their media. */
          locked: z.boolean(),
          /** Bought with one of the tokens given. */
          bought: z.boolean(),
          lessons: z.array(z.object({ lessonno: z.int(), title: z.string(), mediatype: z.enum(['audio', 'video']), videourl: z.string() })),
        }),
      ),
    }),
  }),
};

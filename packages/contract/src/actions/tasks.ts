import { z } from 'zod';
import { personName } from '../person-name.js';
import { action, base64File, codes, flag, idString, pageFields, pageOf, requiredText, text } from '../catalogue-kit.js';
import { genderCode, importProblem, ROSTER_MAX_BASE64 } from './persons.js';

/**
 * Group assessment (SPEC §2 /task 00040: teamManagement 00042, administration 00041, groupReport
 * 00043; §7 Tasks and teams).
 *
 * A team (团体) is a class of a school (school, year, term, grade, class) or a department of an
 * employer, with its roster: persons of the institution, each with a student (or staff) number
 * unique within the team. A task (测评任务) gives one plan to one or more teams between a start and
 * an end instant. `insertAssessTeamRosterTask` gives every roster member of the task's teams a
 * personal assessment code (as `as.m.user.insertCUserAssessCode` does); respondents then sign in
 * on the respondent page with the task's code (`taskcode`) plus their number and name, or with
 * their personal code printed on a slip. Progress of a person is the state of that code:
 * notstarted (issued), inprogress (started), finished.
 *
 * `as.m.assess.forms.getFormPageList` (actions/scales.ts), `as.m.assess.getCUser`
 * (actions/persons.ts) and `as.m.assess.getFormInfoByPlanCode` (actions/plans.ts) are the other
 * actions the /task pages call.
 */

export const TEAM = codes('00042', '00041', '00043');
export const TEAM_WRITE = codes('00042');
export const TASK = codes('00041', '00043');
export const TASK_WRITE = codes('00041');
export const GROUP_REPORT = codes('00043');

/** class: a class of a school (students, app 000000002); dept: a department of an employer (working adults, 000000003). */
export const teamKind = z.enum(['class', 'dept']);
/** A task's state on the server's clock: pending (before startat), running, ended (after endat). */
export const taskStatus = z.enum(['pending', 'running', 'ended']);
/** A person's progress in a task: the state of their personal code. */
export const progressStatus = z.enum(['notstarted', 'inprogress', 'finished']);

/** The task code respondents type with their number and name: 8 characters of the assessment-code alphabet. */
export const TASK_CODE_LENGTH = 8;
/** A student or staff number: letters, digits, - and _. */
export const studentNo = z
  .string()
  .trim()
  .min(1)
  .max(32)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _');
/** An instant on the wire, with offset (e.g. 2026-09-01T08:00:00+08:00). */
const instant = z.iso.datetime({ offset: true });

const teamFields = {
  kind: teamKind,
  school: text(50),
  /** School year, e.g. 2026 or 2026-2027. */
  year: text(20),
  /** Term, e.g. 第一学期. */
  term: text(20),
  grade: text(20),
  classname: text(30),
  deptname: text(50),
};

export const teamRow = z.object({
  teamid: z.string(),
  musercode: z.string(),
  insname: z.string(),
  ...teamFields,
  /** The app the roster's persons belong to. */
  appid: z.string(),
  /** Display name: school grade class (year term), or the department. */
  teamname: z.string(),
  membercount: z.int(),
  /** Tasks of the team not yet ended (a team with one cannot be deleted). */
  opentaskcount: z.int(),
  createdat: z.string(),
});
export type TeamRow = z.infer<typeof teamRow>;

export const teamMemberRow = z.object({
  cusercode: z.string(),
  studentno: z.string(),
  realname: z.string(),
  gender: z.string(),
  joinedat: z.string(),
});

/** One line of a roster import's difference against the current roster. */
export const rosterChange = z.object({
  change: z.enum(['new', 'changed', 'leaving']),
  /** Spreadsheet row (0 for leaving members). */
  row: z.int(),
  studentno: z.string(),
  realname: z.string(),
  gender: z.string(),
  /** For changed: the current name and gender. */
  before: z.object({ realname: z.string(), gender: z.string() }).nullable(),
});

export const taskTeam = z.object({ teamid: z.string(), teamname: z.string() });

export const taskRow = z.object({
  taskid: z.string(),
  musercode: z.string(),
  insname: z.string(),
  taskname: z.string(),
  taskcode: z.string(),
  plancode: z.string(),
  planname: z.string(),
  startat: z.string(),
  endat: z.string(),
  status: taskStatus,
  teams: z.array(taskTeam),
  /** Persons on the rosters of the task's teams now. */
  rostercount: z.int(),
  /** Persons given a personal code for the task. */
  issuedcount: z.int(),
  /** Persons who started or finished: while > 0 the plan cannot change. */
  answeredcount: z.int(),
  createdat: z.string(),
});
export type TaskRow = z.infer<typeof taskRow>;

export const taskPersonRow = z.object({
  cusercode: z.string(),
  teamid: z.string(),
  teamname: z.string(),
  studentno: z.string(),
  realname: z.string(),
  gender: z.string(),
  assesscode: z.string(),
  /** Respondent page of the personal code (for slips). */
  url: z.string(),
  status: progressStatus,
});

/** consentmissing: persons under 14 without a guardian's consent, or whose consent was withdrawn (issue 30 §4). */
const progressCounts = { total: z.int(), notstarted: z.int(), inprogress: z.int(), finished: z.int(), consentmissing: z.int() };
export const taskProgress = z.object({
  taskid: z.string(),
  status: taskStatus,
  ...progressCounts,
  teams: z.array(z.object({ teamid: z.string(), teamname: z.string(), ...progressCounts })),
});

export const rosterProgressRow = z.object({
  cusercode: z.string(),
  teamid: z.string(),
  teamname: z.string(),
  studentno: z.string(),
  realname: z.string(),
  status: progressStatus,
  startedat: z.string().nullable(),
  finishedat: z.string().nullable(),
  /** The person's consent state (actions/consent.ts). */
  consent: z.enum(['given', 'pending', 'guardianmissing', 'withdrawn']),
});

const lookupFilters = z.strictObject({
  musercode: idString.optional(),
  school: text(50).optional(),
  year: text(20).optional(),
  term: text(20).optional(),
});
const lookup = <I extends z.ZodType>(summary: string, input: I) =>
  action({ access: TEAM, kind: 'json', op: 'read', summary, input, output: z.array(z.string()), ids: { musercode: 'muser' } });

const progressFilters = {
  taskid: idString,
  teamid: idString.optional(),
  /** unfinished: not started or in progress (the head teachers' list of who has not finished). */
  status: z.union([progressStatus, z.literal('unfinished'), z.literal('')]).optional(),
};

export const taskActions = {
  // ---------- teams (00042) ----------
  'as.m.assess.getAssessTeamPageList': action({
    access: TEAM,
    kind: 'json',
    op: 'list',
    summary:
      'Teams of the caller’s institutions (or of one), filtered by kind, school, year, term, grade and name; ordered by school, year, term, grade, class, department.',
    input: z.strictObject({
      musercode: idString.optional(),
      kind: z.union([teamKind, z.literal('')]).optional(),
      school: text(50).optional(),
      year: text(20).optional(),
      term: text(20).optional(),
      grade: text(20).optional(),
      teamname: text(50).optional(),
      ...pageFields,
    }),
    output: pageOf(teamRow),
    ids: { musercode: 'muser' },
  }),
  'as.m.assess.insertAssessTeam': action({
    access: TEAM_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Create a team of the caller’s institution (or one in scope): a class (school, grade and class required) or a department (deptname required). The same team twice in one institution is a conflict.',
    input: z
      .strictObject({ musercode: idString.optional(), ...teamFields })
      .refine((v) => (v.kind === 'class' ? !!(v.school && v.grade && v.classname) : !!v.deptname), {
        message: 'a class needs school, grade and class; a department needs its name',
        path: ['kind'],
      }),
    output: z.object({ teamid: z.string() }),
    ids: { musercode: 'muser' },
    /** With the institution, kind, school, year, term, grade and department (one index). */
    unique: ['classname', 'deptname'],
  }),
  'as.m.assess.deleteAssessTeam': action({
    access: TEAM_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Delete a team in scope. Refused (conflict) while a task that has not ended includes it; ended tasks keep their rosters and reports.',
    input: z.strictObject({ teamid: idString }),
    output: z.null(),
    ids: { teamid: 'team' },
  }),
  'as.m.assess.getAssessTeamRoster': action({
    access: TEAM,
    kind: 'json',
    op: 'list',
    summary: 'The roster of a team in scope, by number; filter by name or number.',
    input: z.strictObject({ teamid: idString, realname: text(50).optional(), studentno: text(32).optional(), ...pageFields }),
    output: pageOf(teamMemberRow),
    ids: { teamid: 'team' },
  }),
  'as.m.assess.insertAssessTeamCUser': action({
    access: TEAM_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Add a person to a team’s roster with a number unique in the team: an existing person of the team’s institution (cusercode) or a new one (realname and gender).',
    input: z.strictObject({
      teamid: idString,
      studentno: studentNo,
      cusercode: idString.optional(),
      realname: personName.optional(),
      gender: genderCode.optional(),
    }),
    output: z.object({ cusercode: z.string() }),
    ids: { teamid: 'team', cusercode: 'person' },
  }),
  'as.m.assess.batchDeleteAssessTeamCUser': action({
    access: TEAM_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Remove persons from a team’s roster (the persons, their codes and reports stay). Persons not on the roster are ignored.',
    input: z.strictObject({ teamid: idString, cusercodes: z.array(idString).min(1).max(5000) }),
    output: z.object({ removed: z.int() }),
    ids: { teamid: 'team', cusercodes: 'person' },
  }),
  'as.m.assess.getAssessTeamRosterTemplate': action({
    access: TEAM_WRITE,
    kind: 'download',
    op: 'export',
    summary: 'Download the team roster template (.xlsx): number, name, gender.',
    input: z.strictObject({}),
    output: z.unknown(),
  }),
  'as.m.assess.importAssessTeamRoster': action({
    access: TEAM_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Import a team’s roster from the template (.xlsx, base64): mode preview answers the difference against the current roster (new, changed name or gender, leaving) and every bad row, and stores nothing; mode commit applies exactly that difference in one transaction (new persons created and added, changed ones updated, leaving ones removed from the team) or, with any bad row, refuses (badImportFile) and stores nothing.',
    input: z.strictObject({
      teamid: idString,
      mode: z.enum(['preview', 'commit']).default('preview'),
      filename: z.string().trim().min(1).max(200),
      content: base64File(ROSTER_MAX_BASE64),
    }),
    output: z.object({
      mode: z.enum(['preview', 'commit']),
      /** Data rows read. */
      total: z.int(),
      added: z.int(),
      changed: z.int(),
      leaving: z.int(),
      unchanged: z.int(),
      /** The difference, new and changed in file order then leaving by number (at most 10,000 listed). */
      changes: z.array(rosterChange),
      problems: z.array(importProblem),
      problemcount: z.int(),
      /** The listed problems as .xlsx (base64), '' when none. */
      errorfile: z.string(),
    }),
    ids: { teamid: 'team' },
    maxBodyBytes: ROSTER_MAX_BASE64 + 4096,
  }),
  'as.m.assess.getSchoolList': lookup('Schools of the teams of the caller’s institutions (or of one), sorted.', lookupFilters.pick({ musercode: true })),
  'as.m.assess.getYearList': lookup('School years of the teams in scope (of one school), newest first.', lookupFilters.pick({ musercode: true, school: true })),
  'as.m.assess.getTermList': lookup('Terms of the teams in scope (of one school and year), sorted.', lookupFilters.omit({ term: true })),
  'as.m.assess.getGradeList': lookup('Grades of the teams in scope (of one school, year and term), sorted.', lookupFilters),

  // ---------- tasks (00041) ----------
  'as.m.assess.getTaskList': action({
    access: TASK,
    kind: 'json',
    op: 'list',
    summary: 'Tasks of the caller’s institutions (or of one), filtered by name and state; newest start first.',
    input: z.strictObject({
      musercode: idString.optional(),
      taskname: text(50).optional(),
      status: z.union([taskStatus, z.literal('')]).optional(),
      ...pageFields,
    }),
    output: pageOf(taskRow),
    ids: { musercode: 'muser' },
  }),
  'as.m.assess.insertAssessTask': action({
    access: TASK_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Create a task of the caller’s institution (or one in scope): a plan it may use, one or more of its teams, start before end. Answers the task and its respondent code.',
    input: z
      .strictObject({
        musercode: idString.optional(),
        taskname: requiredText(50),
        plancode: idString,
        teamids: z.array(idString).min(1).max(500),
        startat: instant,
        endat: instant,
      })
      .refine((v) => Date.parse(v.startat) < Date.parse(v.endat), { message: 'endat must be after startat', path: ['endat'] }),
    output: z.object({ taskid: z.string(), taskcode: z.string() }),
    ids: { musercode: 'muser', plancode: 'plan', teamids: 'team' },
  }),
  'as.m.assess.updateAssessTask': action({
    access: TASK_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Change a task in scope; fields left out stay. The plan cannot change once anyone has answered; a team with answers cannot be taken off; start stays before end.',
    input: z.strictObject({
      taskid: idString,
      taskname: requiredText(50).optional(),
      plancode: idString.optional(),
      teamids: z.array(idString).min(1).max(500).optional(),
      startat: instant.optional(),
      endat: instant.optional(),
    }),
    output: z.null(),
    ids: { taskid: 'task', plancode: 'plan', teamids: 'team' },
  }),
  'as.m.assess.deleteAssessTask': action({
    access: TASK_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Delete a task in scope and withdraw its unused personal codes. Refused (conflict) once anyone has answered.',
    input: z.strictObject({ taskid: idString }),
    output: z.null(),
    ids: { taskid: 'task' },
  }),
  'as.m.assess.insertAssessTeamRosterTask': action({
    access: TASK_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Give a personal code of the task’s plan to every roster member of its teams who has none for the task yet (idempotent; plan counts are used as for single codes). Refused after the task ended.',
    input: z.strictObject({ taskid: idString }),
    output: z.object({ issued: z.int(), total: z.int() }),
    ids: { taskid: 'task' },
  }),
  'as.m.assess.getAssessTaskRoster': action({
    access: TASK,
    kind: 'json',
    op: 'list',
    summary: 'The persons given a code for a task in scope, by team and number, with their personal code and state.',
    input: z.strictObject({ taskid: idString, teamid: idString.optional(), realname: text(50).optional(), ...pageFields }),
    output: pageOf(taskPersonRow),
    ids: { taskid: 'task', teamid: 'team' },
  }),
  'as.m.assess.deleteAssessTaskCUser': action({
    access: TASK_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Take a person off a task and withdraw their code; refused (conflict) once they have started.',
    input: z.strictObject({ taskid: idString, cusercode: idString }),
    output: z.null(),
    ids: { taskid: 'task', cusercode: 'person' },
  }),

  // ---------- progress (00041) ----------
  'as.m.assess.getAssessTaskProgress': action({
    access: TASK,
    kind: 'json',
    op: 'read',
    summary: 'Counts of a task in scope: not started, in progress, finished, overall and per team.',
    input: z.strictObject({ taskid: idString }),
    output: taskProgress,
    ids: { taskid: 'task' },
  }),
  'as.m.assess.getAssessTaskRosterProgress': action({
    access: TASK,
    kind: 'json',
    op: 'list',
    summary: 'The persons of a task in scope with their progress, by team and number; filter by team, state and name.',
    input: z.strictObject({ ...progressFilters, realname: text(50).optional(), ...pageFields }),
    output: pageOf(rosterProgressRow),
    ids: { taskid: 'task', teamid: 'team' },
  }),
  'as.m.assess.exportAssessTaskRosterProgress': action({
    access: TASK,
    kind: 'download',
    op: 'export',
    summary: 'Download the progress of a task’s persons as .xlsx (one sheet per team; e.g. who has not finished, by class); audited.',
    input: z.strictObject(progressFilters),
    output: z.unknown(),
    ids: { taskid: 'task', teamid: 'team' },
  }),

  // ---------- group report (00043) ----------
  'as.m.assess.showOrHiddenTeamReport': action({
    access: GROUP_REPORT,
    kind: 'json',
    op: 'write',
    summary: 'Show (hidden 0) or hide (hidden 1) the group report of a task in scope, or of one of its teams.',
    input: z.strictObject({ taskid: idString, teamid: idString.optional(), hidden: flag }),
    output: z.null(),
    ids: { taskid: 'task', teamid: 'team' },
  }),
};

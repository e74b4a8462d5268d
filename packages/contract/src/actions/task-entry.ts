import { z } from 'zod';
import { action, flag, idString, requiredText } from '../catalogue-kit.js';
import { assessCodeInput, respondentSession } from './exam.js';
import { studentNo, TASK, TASK_WRITE } from './tasks.js';

/** A task sign-in PIN: six digits, printed on the student's slip (only its hash is stored). */
export const TASK_PIN_LENGTH = 6;
export const taskPin = z
  .string()
  .trim()
  .regex(new RegExp(`^[0-9]{${TASK_PIN_LENGTH}}$`), `${TASK_PIN_LENGTH} digits`);

/**
 * The respondent entry of a group-assessment task (issue 14): a student types the task's code
 * (written on the board or in the class chat) with their own number and name, and gets the
 * respondent session of the personal code the task gave them. The rest of the flow is the
 * personal code's (as.c.exam.*).
 *
 * The optional second factor (issue 27): a task with `pinrequired` also asks for the student's
 * six-digit PIN, drawn when their slip is printed (`resetAssessTaskPins`) and shown only there,
 * so a classmate who knows a number and a name cannot answer for that student. Off by default.
 */
export const taskEntryActions = {
  'as.c.task.getTask': action({
    access: 'public',
    kind: 'json',
    op: 'read',
    summary:
      'What the sign-in screen needs to know of a task code before the student signs in: the task’s name and whether it asks for a PIN. An unknown code counts as a wrong code (rate-limited per address); a task before its start or after its end is a clear message.',
    input: z.strictObject({ taskcode: assessCodeInput }),
    output: z.object({ taskname: z.string(), pinrequired: flag }),
  }),
  'as.c.task.login': action({
    access: 'public',
    kind: 'json',
    op: 'auth',
    summary:
      'A respondent signs in to a task with its code plus their number and name (as on the roster), and their slip’s PIN when the task asks for one: answers a respondent token for their personal code (as.c.exam.start does) and where they stand. A wrong code, number, name or PIN is one refusal that stores nothing but the failure (wrong PINs also count per student, who is locked after TASK_PIN_FAILURES until the slip is printed again); before the start or after the end of the task a clear message. Rate-limited per address as code entries are.',
    input: z.strictObject({ taskcode: assessCodeInput, studentno: studentNo, realname: requiredText(50), pin: taskPin.optional() }),
    output: respondentSession.extend({ token: z.string() }),
  }),
  'as.m.assess.getAssessTaskPin': action({
    access: TASK,
    kind: 'json',
    op: 'read',
    summary:
      'Whether a task in scope asks for PINs at sign-in, and how many of its persons have a printed PIN and how many are locked by wrong ones.',
    input: z.strictObject({ taskid: idString }),
    output: z.object({ pinrequired: flag, total: z.int(), withpin: z.int(), locked: z.int() }),
    ids: { taskid: 'task' },
  }),
  'as.m.assess.updateAssessTaskPin': action({
    access: TASK_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Switch the PIN at sign-in on (1) or off (0) for a task in scope. With it on, a student signs in with number and name only once their slip with a PIN is printed; their personal code works as before.',
    input: z.strictObject({ taskid: idString, pinrequired: flag }),
    output: z.null(),
    ids: { taskid: 'task' },
  }),
  'as.m.assess.resetAssessTaskPins': action({
    access: TASK_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Draw new PINs for the slips about to be printed: the persons of a task in scope (of one team, or one person) who have not finished. Answers each PIN once (only a hash is kept); earlier PINs of those persons stop working and their wrong-PIN lock is lifted. Refused while the task does not ask for PINs or after it ended.',
    input: z.strictObject({ taskid: idString, teamid: idString.optional(), cusercode: idString.optional() }),
    output: z.object({ rows: z.array(z.object({ cusercode: z.string(), pin: z.string() })) }),
    ids: { taskid: 'task', teamid: 'team', cusercode: 'person' },
  }),
};

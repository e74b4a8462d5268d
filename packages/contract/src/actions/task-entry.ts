import { z } from 'zod';
import { action, requiredText } from '../catalogue-kit.js';
import { assessCodeInput, respondentSession } from './exam.js';
import { studentNo } from './tasks.js';

/**
 * The respondent entry of a group-assessment task (issue 14): a student types the task's code
 * (written on the board or in the class chat) with their own number and name, and gets the
 * respondent session of the personal code the task gave them. The rest of the flow is the
 * personal code's (as.c.exam.*).
 */
export const taskEntryActions = {
  'as.c.task.login': action({
    access: 'public',
    kind: 'json',
    op: 'auth',
    summary:
      'A respondent signs in to a task with its code plus their number and name (as on the roster): answers a respondent token for their personal code (as.c.exam.start does) and where they stand. A wrong code, number or name is one refusal that stores nothing; before the start or after the end of the task a clear message. Rate-limited per address as code entries are.',
    input: z.strictObject({ taskcode: assessCodeInput, studentno: studentNo, realname: requiredText(50) }),
    output: respondentSession.extend({ token: z.string() }),
  }),
};

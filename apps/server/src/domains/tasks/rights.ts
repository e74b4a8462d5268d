import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { taskPerson, teamMember } from './tables.js';

/**
 * An erasure (issue 30 §5): a school's student number names a pupil as well as an ID number does.
 * The person stays in their classes (grade statistics) under a number made from their code, which
 * names nobody and stays unique in the class.
 */
export async function eraseStudentNumbersOfPerson(tx: DbOrTx, cusercode: string): Promise<void> {
  const anonymous = `anon-${cusercode}`;
  await tx.update(teamMember).set({ studentno: anonymous }).where(eq(teamMember.cusercode, cusercode));
  await tx.update(taskPerson).set({ studentno: anonymous }).where(eq(taskPerson.cusercode, cusercode));
}

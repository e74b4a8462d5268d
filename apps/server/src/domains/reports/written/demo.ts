import { and, eq, inArray } from 'drizzle-orm';
import { loadConfig } from '../../../config.js';
import type { Db } from '../../../db/database.js';
import { newId } from '../../../kit/index.js';
import { JobRunner } from '../../../kit/jobs/index.js';
import { personBriefs } from '../../persons/index.js';
import { currentReportCounts, queueWritten, WRITTEN_JOB, writtenReportJob } from './store.js';
import { RULES_MODEL } from './rules.js';
import { writtenReport } from './tables.js';

/**
 * A few written reports of the school's persons, written by the rule-based writer through the same
 * job path as in use (queued, then run by a job runner on the seeding clock): the first two are
 * approved, the rest stay drafts for staff to review.
 */
export async function seedDemoWritten(db: Db, now: Date, cusercodes: string[]): Promise<void> {
  const counts = await currentReportCounts(db, cusercodes);
  const chosen = cusercodes.filter((c) => counts.get(c)).slice(0, 5);
  if (!chosen.length) return;
  const owners = await personBriefs(db, chosen);
  const ids: string[] = [];
  await db.transaction(async (tx) => {
    for (const cusercode of chosen) {
      const id = await queueWritten(
        tx,
        {
          musercode: owners.get(cusercode)!.musercode,
          cusercode,
          writer: 'rules',
          model: RULES_MODEL,
          lang: 'zh-CN',
          createdby: owners.get(cusercode)!.musercode,
          now,
        },
        newId('WR'),
      );
      if (id) ids.push(id);
    }
  });
  await new JobRunner({ db, config: loadConfig({}), now: () => now, handlers: { [WRITTEN_JOB]: writtenReportJob } }).runDue();
  await db
    .update(writtenReport)
    .set({ state: 'approved', approvedby: writtenReport.musercode, approvedat: now })
    .where(and(inArray(writtenReport.writtenid, ids.slice(0, 2)), eq(writtenReport.state, 'draft')));
}

import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { examCategory } from './tables.js';

/**
 * Exam categories per population app: the groups a stage belongs to. Platform reference data,
 * written at every start (a name change here reaches every database).
 */
export const examCategories: { categoryid: string; appid: string; zh: string; en: string }[] = [
  { categoryid: 'C0101', appid: '000000001', zh: '孕期', en: 'Pregnancy' },
  { categoryid: 'C0102', appid: '000000001', zh: '产后', en: 'Postpartum' },
  { categoryid: 'C0201', appid: '000000002', zh: '小学', en: 'Primary school' },
  { categoryid: 'C0202', appid: '000000002', zh: '初中', en: 'Junior secondary school' },
  { categoryid: 'C0203', appid: '000000002', zh: '高中', en: 'Senior secondary school' },
  { categoryid: 'C0204', appid: '000000002', zh: '大学', en: 'University' },
  { categoryid: 'C0301', appid: '000000003', zh: '常规测评', en: 'Routine assessment' },
  { categoryid: 'C0302', appid: '000000003', zh: '专项测评', en: 'Targeted assessment' },
  { categoryid: 'C0401', appid: '000000004', zh: '社区居家', en: 'Community and home' },
  { categoryid: 'C0402', appid: '000000004', zh: '机构养老', en: 'Residential care' },
  { categoryid: 'C0501', appid: '000000005', zh: '定制', en: 'Custom' },
];

export async function syncExamCategories(db: DbOrTx) {
  await db
    .insert(examCategory)
    .values(examCategories.map((c, sort) => ({ categoryid: c.categoryid, appid: c.appid, categoryname: c.zh, categorynameen: c.en, sort })))
    .onConflictDoUpdate({
      target: examCategory.categoryid,
      set: { appid: sql`excluded.appid`, categoryname: sql`excluded.categoryname`, categorynameen: sql`excluded.categorynameen`, sort: sql`excluded.sort` },
    });
}

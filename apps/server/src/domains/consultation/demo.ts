import type { DbOrTx } from '../../db/database.js';
import { loadCurrentDefinitions } from '../scales/index.js';
import { storeRegistration, type NewRegistration } from './store.js';

/**
 * Demo registrations: a few consultation requests on the built-in registration form, some filled
 * in by staff for demo persons, some from the respondent page (a name and phone, no person yet),
 * in every state but "case", so the registration page has content on first start. Stored through
 * storeRegistration, so they pass the same answer checks as a real one.
 */
const FORM = 'REG_CONSULT';
const DAY = 86_400_000;

export async function seedDemoRegistrations(db: DbOrTx, now: Date, cusercodes: string[]) {
  const def = (await loadCurrentDefinitions(db, [FORM])).get(FORM);
  if (!def) return; // the built-in library is synced before the demo; a database without it gets none
  const at = (days: number, hours = 0) => new Date(now.getTime() - days * DAY - hours * 3600_000);
  // The first demo persons are the school's (I0001), then the maternity hospital's (I0002) from index 120.
  const school = cusercodes.slice(0, 3);
  const hospital = cusercodes.slice(120, 122);
  const rows: NewRegistration[] = [
    {
      musercode: 'I0001',
      realname: '林晓雨',
      phone: '13812345601',
      source: 'respondent',
      now: at(0, 3),
      answers: [
        { no: 1, value: [1, 2] },
        { no: 2, value: '最近考试压力很大，晚上睡不着' },
        { no: 3, value: 1 },
        { no: 4, value: 2 },
        { no: 5, value: 1 },
      ],
    },
    {
      musercode: 'I0001',
      realname: '周子航',
      phone: '13912345602',
      source: 'respondent',
      now: at(2, 5),
      state: 'inprogress',
      answers: [
        { no: 1, value: [3] },
        { no: 3, value: 2 },
        { no: 4, value: 4 },
        { no: 5, value: 3 },
      ],
    },
    ...school.map<NewRegistration>((cusercode, i) => ({
      musercode: 'I0001',
      cusercode,
      source: 'staff',
      createdby: 'U0001',
      now: at(5 + i * 4, 2),
      state: i === 2 ? 'closed' : 'new',
      answers: [
        { no: 1, value: [[2], [3, 4], [1]][i]! },
        { no: 3, value: 1 + (i % 3) },
        { no: 4, value: 1 + i },
        { no: 5, value: 1 },
      ],
    })),
    {
      musercode: 'I0002',
      realname: '陈静',
      phone: '13712345603',
      source: 'respondent',
      now: at(1, 1),
      answers: [
        { no: 1, value: [1, 5] },
        { no: 2, value: '产后情绪低落，想找人聊聊' },
        { no: 3, value: 2 },
        { no: 4, value: 1 },
        { no: 5, value: 1 },
      ],
    },
    ...hospital.map<NewRegistration>((cusercode, i) => ({
      musercode: 'I0002',
      cusercode,
      source: 'staff',
      createdby: 'I0002',
      now: at(3 + i * 6),
      answers: [
        { no: 1, value: [5] },
        { no: 3, value: 2 },
        { no: 4, value: 2 + i },
        { no: 5, value: 2 },
      ],
    })),
  ];
  for (const r of rows) await storeRegistration(db, def, r);
}

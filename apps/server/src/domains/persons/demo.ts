/**
 * Demo persons (embedded demo mode): a few hundred people across the four populations, each
 * with archive answers, registered through createPersons (the same checks as the console).
 * Deterministic: the same names, numbers and answers on every start, no wall clock.
 */
import type { FileStorage } from '../../kit/storage/index.js';
import { idCardCheckChar, type ArchiveAnswer } from '@xinli/contract';
import type { Db, DbOrTx } from '../../db/database.js';
import { writeAudit } from '../audit/index.js';
import { anonymisePerson } from './rights.js';
import { createPersons, type NewPerson } from './persons.js';

/** Institutions of the demo and how many persons each gets (seed/demo.ts accounts). */
export const DEMO_PERSONS: { musercode: string; appid: string; count: number; ages: [number, number]; region: string }[] = [
  { musercode: 'I0001', appid: '000000002', count: 120, ages: [12, 14], region: '330108' },
  { musercode: 'I0002', appid: '000000001', count: 80, ages: [22, 40], region: '330106' },
  { musercode: 'I0003', appid: '000000004', count: 60, ages: [55, 88], region: '330102' },
  { musercode: 'I0004', appid: '000000003', count: 60, ages: [23, 58], region: '440305' },
];

const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈';
const GIVEN = '伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰红梅琳雪晨宇轩浩然子涵欣怡思雨佳琪梓萱一诺雨桐';

/** A small deterministic generator (mulberry32), so every demo start is the same. */
function generator(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/**
 * The school's students are two junior grades: the first half 初一 (grade 7), the second 初二
 * (grade 8), in the order the group assessment demo puts them in classes (tasks/demo.ts).
 */
export const studentGrade = (i: number) => (i < DEMO_PERSONS[0]!.count / 2 ? 7 : 8);

/**
 * A birth date that fits: a student of grade g turns g + 6 in the calendar year of the seed
 * (初一 at 12 or 13, as a child starting school at 6 or 7), others an age in their range.
 */
function birthYear(appid: string, year: number, age: number, i: number): number {
  return appid === '000000002' ? year - (studentGrade(i) + 6) : year - age;
}

function archiveOf(appid: string, pick: (n: number) => number, region: string, i: number): ArchiveAnswer[] {
  switch (appid) {
    case '000000001': {
      const stage = 1 + pick(5);
      return [
        { no: 1, value: stage },
        { no: 3, value: stage <= 3 ? [8, 20, 32][stage - 1]! + pick(6) : 40 },
        { no: 4, value: 1 + pick(2) },
        { no: 5, value: region },
        { no: 6, value: pick(6) === 0 ? [2, 3] : [1] },
      ];
    }
    case '000000002': {
      // The random draws stay (every other demo value keeps its place), the grade is the student's.
      pick(2);
      pick(6);
      const grade = studentGrade(i);
      return [
        { no: 1, value: grade <= 6 ? 1 : grade <= 9 ? 2 : 3 },
        { no: 2, value: grade },
        { no: 3, value: '滨江第一中学' },
        { no: 4, value: 1 + pick(2) },
        { no: 5, value: region },
        { no: 6, value: '07:30-17:10' },
      ];
    }
    case '000000003':
      return [
        { no: 1, value: 1 + pick(7) },
        { no: 2, value: 40 + pick(25) + (i % 2) * 0.5 },
        { no: 3, value: `0${8 + pick(2)}:${pick(2) ? '30' : '00'}` },
        { no: 5, value: region },
      ];
    default:
      return [
        { no: 1, value: 1 + pick(4) },
        { no: 2, value: pick(3) === 0 ? [1] : [2, 1 + 2 + pick(3)].filter((v, k, a) => a.indexOf(v) === k) },
        { no: 4, value: region },
        { no: 5, value: 5 + pick(5) + 0.5 },
      ];
  }
}

/** The demo persons as createPersons takes them; `now` dates their registration over past months. */
export function demoPeople(now: Date): NewPerson[] {
  const rand = generator(20261122);
  const pick = (n: number) => Math.floor(rand() * n);
  const year = now.getUTCFullYear();
  const people: NewPerson[] = [];
  const ids = new Set<string>();
  for (const inst of DEMO_PERSONS) {
    for (let i = 0; i < inst.count; i++) {
      const maternity = inst.appid === '000000001';
      const gender = maternity ? '02' : pick(2) ? '01' : '02';
      const age = inst.ages[0] + pick(inst.ages[1] - inst.ages[0] + 1);
      const birthdate = `${birthYear(inst.appid, year, age, i)}-${pad(1 + pick(12))}-${pad(1 + pick(28))}`;
      const seq = pad(10 + pick(89)) + String(gender === '01' ? 1 + 2 * pick(5) : 2 * pick(5));
      const first17 = `${inst.region}${birthdate.replace(/-/g, '')}${seq}`;
      const idcard = pick(5) === 0 || ids.has(first17) ? null : first17 + idCardCheckChar(first17);
      if (idcard) ids.add(first17);
      const realname = SURNAMES[pick(SURNAMES.length)]! + GIVEN[pick(GIVEN.length)]! + (pick(2) ? GIVEN[pick(GIVEN.length)]! : '');
      // Registered over the last 180 days, spread evenly.
      const at = new Date(now.getTime() - Math.floor(((inst.count - i) / inst.count) * 180 * 86_400_000) - pick(86_400_000));
      people.push({
        musercode: inst.musercode,
        appid: inst.appid,
        realname,
        gender,
        birthdate,
        phonenumber: `1${[3, 5, 7, 8, 9][pick(5)]}${String(100_000_000 + pick(900_000_000)).slice(0, 9)}`,
        // Some people give no ID number (children often do not know it).
        idcard,
        archive: archiveOf(inst.appid, pick, inst.region, i),
        source: i % 3 === 0 ? 'import' : 'console',
        now: at,
      });
    }
  }
  return people;
}

/** Seeds the demo persons; the accounts and apps of seed/demo.ts must exist. */
export async function seedDemoPersons(db: DbOrTx, now: Date): Promise<string[]> {
  return createPersons(db, demoPeople(now));
}

/**
 * One anonymised person in the demo (issue 30 §5): the eldercare home's most recent resident,
 * erased as staff would (anonymisePerson, audited), so the archive lists show 已匿名.
 */
export async function seedDemoErasure(db: Db, now: Date, persons: string[], storage?: FileStorage) {
  const i = DEMO_PERSONS.findIndex((p) => p.musercode === 'I0003');
  const before = DEMO_PERSONS.slice(0, i).reduce((n, p) => n + p.count, 0);
  const cusercode = persons[before + DEMO_PERSONS[i]!.count - 1];
  if (!cusercode || !(await anonymisePerson(db, cusercode, 'I0003', now, storage))) return;
  await writeAudit(db, { at: now, musercode: 'I0003', userid: null, actor: null, action: 'as.m.cuser.anonymiseCUser', result: 'ok', detail: { cusercode, target: 'I0003', appid: DEMO_PERSONS[i]!.appid }, ip: '127.0.0.1', requestid: 'demo' });
}

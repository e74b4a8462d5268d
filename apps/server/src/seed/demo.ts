import { count } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { muser, muserPermission } from '../domains/accounts/tables.js';
import { dept, role, roleMenu, sysuser, sysuserRole } from '../domains/system/tables.js';
import { staffContactColumns } from '../domains/system/index.js';
import { hashPassword, md5Upper } from '../domains/auth/passwords.js';
import { muserApp } from '../domains/apps/tables.js';
import { seedDemoAssessment } from '../domains/plans/demo.js';
import { seedDemoErasure, seedDemoPersons } from '../domains/persons/demo.js';
import { seedDemoReports } from '../domains/assessments/demo.js';
import { seedDemoRegistrations } from '../domains/consultation/demo.js';
import { seedDemoWritten } from '../domains/reports/written/demo.js';
import { seedDemoCustomReports } from '../domains/reports/custom/demo.js';
import { seedDemoTasks } from '../domains/tasks/demo.js';
import { seedDemoFollowUps } from '../domains/warnings/demo.js';
import { handlers } from '../domains/index.js';
import { seedDemoContent } from '../domains/content/demo.js';
import { seedDemoOrders } from '../domains/orders/demo.js';
import { seedDemoMedia } from '../domains/content/media-demo.js';
import { seedDemoEntries } from '../domains/accounts/demo.js';
import { DEMO_SECOND_FACTOR, seedDemoSecondFactor } from '../domains/auth/demo.js';
import { seedConsentDemo } from '../domains/consent/demo.js';
import type { FileStorage } from '../kit/storage/index.js';

/** Menu codes by area, so demo grants read as what each account is for. */
const area = {
  reports: ['00051', '00052', '00053'],
  statistics: ['00010', '00011', '00012'],
  // 0018021: the custom report's templates (issue 31 §4).
  individual: ['00018', '001801', '001802', '0018021'],
  group: ['00040', '00041', '00042', '00043'],
  // 0004601: the warning trigger and escalation settings (component code); the counsellor and doctor roles lack it.
  warning: ['00013', '00046', '0004601'],
  // 0000801: full phone and ID numbers of persons (component code); the school's counsellor role lacks it.
  archivesAll: ['00008', '00049', '0000801'],
  plans: ['00001', '00002', '00003', '00004', '00029'],
  consultation: ['00015', '00016', '00017'],
  // 0003131: set others' passwords (component code, owner-only): the accounts hold it, no demo role does.
  service: ['00020', '00021', '00022', '0003131'],
  authority: ['00023', '000311', '00031', '000314'],
  organization: ['00048', '000312', '000313', '0003131'],
  operations: ['00025', '00026', '00028', '00039', '00050', '00030', '00054'],
};
const population = {
  maternity: ['0000000011', '000032', '000000001'],
  students: ['0000000022', '000000002'],
  workers: ['0000000033', '000000003'],
  elderly: ['0000000044', '000000004'],
};

/** GB/T 2260 codes with the name the user record carries (checked against the data in demo.test). */
const region = (provincecode: string, citycode: string, districtcode: string, regionname: string) => ({
  provincecode,
  citycode,
  districtcode,
  regionname,
});

/** A category path without gaps, with its level and deepest label as addMUser derives them. */
function category(...labels: string[]) {
  const path = Object.fromEntries([0, 1, 2, 3, 4, 5].map((i) => [`categorycode${i}`, labels[i] ?? '']));
  return { ...path, categorylevel: labels.length, categorycode: labels.at(-1) ?? '' };
}

interface DemoAccount {
  musercode: string;
  username: string;
  musertype: string;
  insname: string;
  parentcode?: string;
  codes: string[];
  /** Population apps the account may use (SPEC §4 app selection). */
  apps: string[];
  extra?: Partial<typeof muser.$inferInsert>;
}

export const demoAccounts: DemoAccount[] = [
  {
    musercode: 'M0000',
    apps: [],
    username: 'admin',
    musertype: '005',
    insname: '心理测评平台运营中心',
    codes: [],
    extra: { issuper: true, appdialogexempt: true },
  },
  {
    musercode: 'P0001',
    apps: ['000000001', '000000002', '000000003', '000000004'],
    username: 'provider',
    musertype: '005',
    insname: '安心心理服务有限公司',
    codes: [
      ...area.reports,
      ...area.statistics,
      ...area.individual,
      ...area.group,
      ...area.warning,
      ...area.archivesAll,
      ...area.plans,
      ...area.consultation,
      ...area.service,
      ...area.authority,
      ...area.organization,
      ...area.operations,
      ...Object.values(population).flat(),
    ],
    extra: {
      ...region('330000', '330100', '330106', '浙江省杭州市西湖区'),
      ...category('服务商', '华东'),
      navbarlinks: [{ key: 'bigscreen', url: '/echarts/web' }],
    },
  },
  {
    musercode: 'I0001',
    apps: ['000000002'],
    username: 'school',
    musertype: '001',
    insname: '滨江第一中学',
    parentcode: 'P0001',
    codes: [
      ...area.statistics,
      ...area.individual,
      ...area.group,
      ...area.warning,
      ...area.archivesAll,
      ...area.plans,
      ...area.consultation,
      ...area.authority,
      ...area.organization,
      ...area.operations,
      ...population.students,
    ],
    extra: { ...region('330000', '330100', '330108', '浙江省杭州市滨江区'), ...category('教育', '中学', '公办') },
  },
  {
    musercode: 'I0002',
    apps: ['000000001'],
    username: 'hospital',
    musertype: '002',
    insname: '仁和妇幼保健院',
    parentcode: 'P0001',
    codes: [
      ...area.statistics,
      ...area.individual,
      ...area.warning,
      ...area.archivesAll,
      ...area.consultation,
      ...area.organization,
      ...area.operations,
      ...population.maternity,
    ],
    extra: { ...region('330000', '330100', '330106', '浙江省杭州市西湖区'), ...category('医疗', '妇幼保健') },
  },
  {
    musercode: 'I0003',
    apps: ['000000004'],
    username: 'eldercare',
    musertype: '004',
    insname: '康乐养老院',
    parentcode: 'P0001',
    codes: [...area.statistics, ...area.individual, ...area.warning, ...area.archivesAll, ...population.elderly],
    extra: { ...region('330000', '330200', '330203', '浙江省宁波市海曙区'), ...category('养老', '社区养老') },
  },
  {
    musercode: 'I0004',
    apps: ['000000003'],
    username: 'warning',
    musertype: '003',
    insname: '恒信科技有限公司',
    codes: [...area.warning, ...area.individual, ...area.statistics, ...population.workers],
    extra: { loginasmarker: 'FW01' },
  },
  {
    musercode: 'I0005',
    apps: ['000000002'],
    username: 'bureau',
    musertype: '005',
    insname: '滨江区教育局',
    codes: [...area.statistics, ...area.reports, ...area.warning],
    // A region authority: its statistics cover the schools of its district (accounts/statistics-scope.ts).
    extra: { loginasmarker: 'JYJ', appdialogexempt: true, ...region('330000', '330100', '330108', '浙江省杭州市滨江区') },
  },
  // A second provider in the south with institutions in other regions and categories, and one
  // institution the platform runs itself, so the /Service lists, filters and trees have variety.
  {
    musercode: 'P0002',
    apps: ['000000001', '000000002', '000000003', '000000004'],
    username: 'provider2',
    musertype: '005',
    insname: '南粤心理健康服务中心',
    codes: [
      ...area.statistics,
      ...area.individual,
      ...area.warning,
      ...area.archivesAll,
      ...area.service,
      ...area.authority,
      ...area.organization,
      ...Object.values(population).flat(),
    ],
    extra: { ...region('440000', '440100', '440106', '广东省广州市天河区'), ...category('服务商', '华南') },
  },
  {
    musercode: 'I0006',
    apps: ['000000002'],
    username: 'gzschool',
    musertype: '001',
    insname: '天河实验小学',
    parentcode: 'P0002',
    codes: [...area.statistics, ...area.individual, ...area.warning, ...area.archivesAll, ...population.students],
    extra: { ...region('440000', '440100', '440106', '广东省广州市天河区'), ...category('教育', '小学', '公办') },
  },
  {
    musercode: 'I0007',
    apps: ['000000003'],
    username: 'shcorp',
    musertype: '003',
    insname: '浦江数据科技股份有限公司',
    parentcode: 'P0002',
    codes: [...area.statistics, ...area.individual, ...area.warning, ...population.workers],
    extra: { ...region('310000', '310100', '310115', '上海市上海市浦东新区'), ...category('企业', '互联网') },
  },
  {
    musercode: 'I0008',
    // 000000005: its psychology clinic's custom report (reports/custom/demo.ts).
    apps: ['000000001', '000000005'],
    username: 'bjhospital',
    musertype: '002',
    insname: '朝阳妇产医院',
    parentcode: 'P0002',
    // Its plans (area.plans): the clinic's own custom-report plan (reports/custom/demo.ts).
    codes: [...area.statistics, ...area.individual, ...area.warning, ...area.plans, ...population.maternity],
    extra: { ...region('110000', '110100', '110105', '北京市北京市朝阳区'), ...category('医疗', '专科医院') },
  },
  {
    musercode: 'I0009',
    apps: ['000000004'],
    username: 'cdcare',
    musertype: '004',
    insname: '锦江颐养中心',
    codes: [...area.statistics, ...area.individual, ...population.elderly],
    extra: { ...region('510000', '510100', '510104', '四川省成都市锦江区'), ...category('养老', '养老院') },
  },
];

/** Staff: at the school a counsellor with a narrow role and an administrator; a doctor at the hospital. */
const demoStaff = [
  {
    userid: 'U0001',
    musercode: 'I0001',
    sysusername: 'teacher',
    realname: '王老师',
    roleid: 'R0001',
    deptid: 'D0002',
    phonenumber: '13812345678',
    email: 'wang.teacher@bjyz.example.cn',
    sex: '02',
  },
  {
    userid: 'U0002',
    musercode: 'I0001',
    sysusername: 'schooladmin',
    realname: '李主任',
    roleid: 'R0002',
    deptid: 'D0002',
    phonenumber: '13987654321',
    sex: '01',
  },
  {
    userid: 'U0101',
    musercode: 'I0002',
    sysusername: 'doctor',
    realname: '陈医生',
    roleid: 'R0101',
    deptid: 'D0102',
    phonenumber: '13600001111',
    sex: '02',
  },
];

/** Departments and roles of the school and the hospital (permission management demo). */
const demoDepts = [
  {
    deptid: 'D0001',
    musercode: 'I0001',
    parentid: null,
    deptname: '滨江第一中学',
    sort: 0,
    leader: '张校长',
    phonenumber: '0571-86000001',
  },
  { deptid: 'D0002', musercode: 'I0001', parentid: 'D0001', deptname: '心理健康中心', sort: 1, leader: '李主任', email: 'xljk@bjyz.example.cn' },
  { deptid: 'D0003', musercode: 'I0001', parentid: 'D0001', deptname: '德育处', sort: 2 },
  { deptid: 'D0004', musercode: 'I0001', parentid: 'D0003', deptname: '高一年级组', sort: 1 },
  { deptid: 'D0101', musercode: 'I0002', parentid: null, deptname: '仁和妇幼保健院', sort: 0 },
  { deptid: 'D0102', musercode: 'I0002', parentid: 'D0101', deptname: '心理门诊', sort: 1 },
];
const demoRoles = [
  {
    roleid: 'R0001',
    musercode: 'I0001',
    rolename: '心理咨询师',
    rolekey: 'counsellor',
    sort: 1,
    codes: ['00018', '0000000022', '001801', '00013', '00046', '00008', '000000002'],
  },
  { roleid: 'R0002', musercode: 'I0001', rolename: '学校管理员', rolekey: 'admin', sort: 0, codes: [] },
  {
    roleid: 'R0003',
    musercode: 'I0001',
    rolename: '班主任',
    rolekey: 'headteacher',
    sort: 2,
    codes: ['00018', '0000000022', '00008', '000000002'],
  },
  {
    roleid: 'R0101',
    musercode: 'I0002',
    rolename: '心理医生',
    rolekey: 'doctor',
    sort: 1,
    codes: ['00018', '0000000011', '00013', '00046', '00008', '000000001'],
  },
];

/**
 * Seeds the demo institutions once, when the database has no account yet; returns whether it did.
 * Dates (authorisation windows) are relative to `now`.
 * `reports: false` leaves out the months of demo reports (about 1,700 scored sheets, several
 * seconds on PGlite): API tests start a fresh database per file and ask for them only when they
 * test them (startTestServer's demoReports). `entryBase`: the public base URL the respondent
 * links are made on; without it the institutions have no entry yet.
 */
export async function seedDemo(
  db: Db,
  password: string,
  now: Date,
  opts: { reports?: boolean; tasks?: boolean; files?: FileStorage; entryBase?: string } = {},
): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(muser);
  if (Number(row?.n) > 0) return false;
  const pwdhash = await hashPassword(md5Upper(password));
  let persons: string[] = [];
  await db.transaction(async (tx) => {
    for (const a of demoAccounts) {
      await tx
        .insert(muser)
        .values({
          musercode: a.musercode,
          username: a.username,
          musertype: a.musertype,
          insname: a.insname,
          parentcode: a.parentcode ?? null,
          pwdhash,
          ...a.extra,
        });
      if (a.apps.length) await tx.insert(muserApp).values(a.apps.map((appid) => ({ musercode: a.musercode, appid })));
      if (a.codes.length) await tx.insert(muserPermission).values([...new Set(a.codes)].map((code) => ({ musercode: a.musercode, code })));
    }
    await tx.insert(dept).values(demoDepts);
    for (const { codes, ...r } of demoRoles) {
      await tx.insert(role).values(r);
      if (codes.length) await tx.insert(roleMenu).values(codes.map((code) => ({ roleid: r.roleid, code })));
    }
    for (const { roleid, phonenumber, email, ...s } of demoStaff) {
      await tx.insert(sysuser).values({ ...s, ...staffContactColumns({ phonenumber, email }), pwdhash });
      await tx.insert(sysuserRole).values({ userid: s.userid, roleid });
    }
    await seedDemoSecondFactor(tx, now);
    // Each institution's respondent entry (its link and QR code), on the public address it is served at.
    if (opts.entryBase) await seedDemoEntries(tx, opts.entryBase, now);
    // Each demo institution's notice on sensitive personal information (its consent step's text).
    await seedConsentDemo(tx, now);
    await seedDemoAssessment(tx, now);
    persons = await seedDemoPersons(tx, now);
    if (opts.reports !== false) await seedDemoReports(tx, now, persons);
    await seedDemoRegistrations(tx, now, persons);
    await seedDemoContent(tx, now, opts.files);
    // The demo goods sell the first demo course, so the courses come first.
    const courses = await seedDemoMedia(tx, now, opts.files);
    await seedDemoOrders(tx, now, courses[0]!, opts.files);
  });
  // The group assessment answers through the respondent actions, so it comes with the reports
  // (about half a minute on PGlite: API tests ask for it with startTestServer's demoTasks). The
  // actions run on the pool as they do when served: several of them read in parallel, which one
  // transaction's connection cannot do (pg queues it and warns that pg@9 will refuse it).
  if (opts.reports !== false && opts.tasks !== false) await seedDemoTasks(db, now, persons, handlers);
  // A clinic's custom report template in use (issue 31 §4), through the same actions.
  if (opts.reports !== false && opts.tasks !== false) await seedDemoCustomReports(db, now, handlers);
  // Staff work the cases those reports and submissions opened (the warning actions, as staff would).
  if (opts.reports !== false) await seedDemoFollowUps(db, now, handlers);
  // Written (AI individual) reports go through the job path, which runs outside the seeding transaction.
  if (opts.reports !== false) await seedDemoWritten(db, now, persons.slice(0, 40));
  // A person's rights: one person erased, as staff would.
  await seedDemoErasure(db, now, persons, opts.files);
  return true;
}

export const demoSignIns = [
  ['admin', 'super account: every menu, every institution'],
  ['provider', 'service provider (type 005) with three institutions; extra navbar links; app dialog'],
  ['school', 'school (type 001) under the provider'],
  ['hospital', 'maternity hospital (type 002) under the provider'],
  ['eldercare', 'elderly-care home (type 004): sees statisticsN'],
  ['warning', 'employer (type 003) with login-as marker FW01: lands on crisis warnings'],
  ['bureau', 'education bureau with login-as marker JYJ: lands on statistics, which cover the schools of its district'],
  ['provider2', 'a second provider (Guangzhou) with institutions in Guangzhou, Shanghai and Beijing'],
  ['teacher', 'staff user of the school with the counsellor role'],
  ['schooladmin', 'staff user of the school with the admin role'],
  ['doctor', 'staff user of the hospital with the doctor role'],
  [
    DEMO_SECOND_FACTOR.username,
    `elderly-care home (Chengdu) that signs in with a second factor: add secret ${DEMO_SECOND_FACTOR.secret} to an authenticator app (TOTP, 30 s, 6 digits), then enter its code`,
  ],
] as const;

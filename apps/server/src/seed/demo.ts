import { count } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { muser, muserPermission } from '../domains/accounts/tables.js';
import { dept, role, roleMenu, sysuser, sysuserRole } from '../domains/system/tables.js';
import { hashPassword, md5Upper } from '../domains/auth/passwords.js';
import { muserApp } from '../domains/apps/tables.js';
import { seedDemoAssessment } from '../domains/plans/demo.js';
import { seedDemoPersons } from '../domains/persons/demo.js';
import { seedDemoReports } from '../domains/assessments/demo.js';

/** Menu codes by area, so demo grants read as what each account is for. */
const area = {
  reports: ['00051', '00052', '00053'],
  statistics: ['00010', '00011', '00012'],
  individual: ['00018', '001801', '001802'],
  group: ['00040', '00041', '00042', '00043'],
  warning: ['00013', '00046'],
  // 0000801: full phone and ID numbers of persons (component code); the school's counsellor role lacks it.
  archivesAll: ['00008', '00049', '0000801'],
  plans: ['00001', '00002', '00003', '00004', '00029'],
  consultation: ['00015', '00016', '00017'],
  service: ['00020', '00021', '00022'],
  authority: ['00023', '000311', '00031'],
  organization: ['00048', '000312', '000313'],
  operations: ['00025', '00026', '00028', '00039', '00050', '00030'],
};
const population = {
  maternity: ['0000000011', '000032', '000000001'],
  students: ['0000000022', '000000002'],
  workers: ['0000000033', '000000003'],
  elderly: ['0000000044', '000000004'],
};

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
    codes: [...area.reports, ...area.statistics, ...area.individual, ...area.group, ...area.warning, ...area.archivesAll, ...area.plans, ...area.consultation, ...area.service, ...area.authority, ...area.organization, ...area.operations, ...Object.values(population).flat()],
    extra: {
      navbarlinks: [
        { key: 'website', url: 'https://www.example.com/' },
        { key: 'bigscreen', url: '/echarts/web' },
      ],
    },
  },
  {
    musercode: 'I0001',
    apps: ['000000002'],
    username: 'school',
    musertype: '001',
    insname: '滨江第一中学',
    parentcode: 'P0001',
    codes: [...area.statistics, ...area.individual, ...area.group, ...area.warning, ...area.archivesAll, ...area.plans, ...area.consultation, ...area.authority, ...area.organization, ...population.students],
    extra: { provincecode: '330000', citycode: '330100', districtcode: '330108', regionname: '浙江省杭州市滨江区' },
  },
  {
    musercode: 'I0002',
    apps: ['000000001'],
    username: 'hospital',
    musertype: '002',
    insname: '仁和妇幼保健院',
    parentcode: 'P0001',
    codes: [...area.statistics, ...area.individual, ...area.warning, ...area.archivesAll, ...area.consultation, ...area.organization, ...population.maternity],
  },
  {
    musercode: 'I0003',
    apps: ['000000004'],
    username: 'eldercare',
    musertype: '004',
    insname: '康乐养老院',
    parentcode: 'P0001',
    codes: [...area.statistics, ...area.individual, ...area.warning, ...area.archivesAll, ...population.elderly],
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
    extra: { loginasmarker: 'JYJ', appdialogexempt: true },
  },
];

/** Staff: at the school a counsellor with a narrow role and an administrator; a doctor at the hospital. */
const demoStaff = [
  { userid: 'U0001', musercode: 'I0001', sysusername: 'teacher', realname: '王老师', roleid: 'R0001', deptid: 'D0002', phonenumber: '13812345678', sex: '02' },
  { userid: 'U0002', musercode: 'I0001', sysusername: 'schooladmin', realname: '李主任', roleid: 'R0002', deptid: 'D0002', phonenumber: '13987654321', sex: '01' },
  { userid: 'U0101', musercode: 'I0002', sysusername: 'doctor', realname: '陈医生', roleid: 'R0101', deptid: 'D0102', phonenumber: '13600001111', sex: '02' },
];

/** Departments and roles of the school and the hospital (permission management demo). */
const demoDepts = [
  { deptid: 'D0001', musercode: 'I0001', parentid: null, deptname: '滨江第一中学', sort: 0, leader: '张校长', phonenumber: '0571-86000001' },
  { deptid: 'D0002', musercode: 'I0001', parentid: 'D0001', deptname: '心理健康中心', sort: 1, leader: '李主任' },
  { deptid: 'D0003', musercode: 'I0001', parentid: 'D0001', deptname: '德育处', sort: 2 },
  { deptid: 'D0004', musercode: 'I0001', parentid: 'D0003', deptname: '高一年级组', sort: 1 },
  { deptid: 'D0101', musercode: 'I0002', parentid: null, deptname: '仁和妇幼保健院', sort: 0 },
  { deptid: 'D0102', musercode: 'I0002', parentid: 'D0101', deptname: '心理门诊', sort: 1 },
];
const demoRoles = [
  { roleid: 'R0001', musercode: 'I0001', rolename: '心理咨询师', rolekey: 'counsellor', sort: 1, codes: ['00018', '0000000022', '001801', '00013', '00046', '00008', '000000002'] },
  { roleid: 'R0002', musercode: 'I0001', rolename: '学校管理员', rolekey: 'admin', sort: 0, codes: [] },
  { roleid: 'R0003', musercode: 'I0001', rolename: '班主任', rolekey: 'headteacher', sort: 2, codes: ['00018', '0000000022', '00008', '000000002'] },
  { roleid: 'R0101', musercode: 'I0002', rolename: '心理医生', rolekey: 'doctor', sort: 1, codes: ['00018', '0000000011', '00013', '00046', '00008', '000000001'] },
];

/** Seeds the demo institution when the database has no account yet. Returns whether it did. */
/** Seeds the demo institution once; dates (authorisation windows) are relative to `now`. */
/**
 * `reports: false` leaves out the months of demo reports (about 1,700 scored sheets, several
 * seconds on PGlite): API tests start a fresh database per file and ask for them only when they
 * test them (startTestServer's demoReports).
 */
export async function seedDemo(db: Db, password: string, now: Date, opts: { reports?: boolean } = {}): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(muser);
  if (Number(row?.n) > 0) return false;
  const pwdhash = await hashPassword(md5Upper(password));
  await db.transaction(async (tx) => {
    for (const a of demoAccounts) {
      await tx.insert(muser).values({ musercode: a.musercode, username: a.username, musertype: a.musertype, insname: a.insname, parentcode: a.parentcode ?? null, pwdhash, ...a.extra });
      if (a.apps.length) await tx.insert(muserApp).values(a.apps.map((appid) => ({ musercode: a.musercode, appid })));
      if (a.codes.length) await tx.insert(muserPermission).values([...new Set(a.codes)].map((code) => ({ musercode: a.musercode, code })));
    }
    await tx.insert(dept).values(demoDepts);
    for (const { codes, ...r } of demoRoles) {
      await tx.insert(role).values(r);
      if (codes.length) await tx.insert(roleMenu).values(codes.map((code) => ({ roleid: r.roleid, code })));
    }
    for (const { roleid, ...s } of demoStaff) {
      await tx.insert(sysuser).values({ ...s, pwdhash });
      await tx.insert(sysuserRole).values({ userid: s.userid, roleid });
    }
    await seedDemoAssessment(tx, now);
    const persons = await seedDemoPersons(tx, now);
    if (opts.reports !== false) await seedDemoReports(tx, now, persons);
  });
  return true;
}

export const demoSignIns = [
  ['admin', 'super account: every menu, every institution'],
  ['provider', 'service provider (type 005) with three institutions; extra navbar links; app dialog'],
  ['school', 'school (type 001) under the provider'],
  ['hospital', 'maternity hospital (type 002) under the provider'],
  ['eldercare', 'elderly-care home (type 004): sees statisticsN'],
  ['warning', 'employer (type 003) with login-as marker FW01: lands on crisis warnings'],
  ['bureau', 'education bureau with login-as marker JYJ: lands on statistics'],
  ['teacher', 'staff user of the school with the counsellor role'],
  ['schooladmin', 'staff user of the school with the admin role'],
  ['doctor', 'staff user of the hospital with the doctor role'],
] as const;

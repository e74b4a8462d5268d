import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { ArchiveAnswer } from '@xinli/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from './test/harness.js';
import { readyEncryption, rotateDataKey, sealedFields } from './encryption.js';
import { testConfig } from './config.js';
import { countUnsealed, currentKey, isSealed, open, openAnswers, parseDataKey, newDataKeyText, useDataKeys } from './kit/crypt/index.js';
import { installDataKeys } from './kit/crypt/keyring.js';
import { openArchive as openArchiveAnswers } from './domains/persons/identity.js';
import { cuser } from './domains/persons/tables.js';
import { dept, sysuser } from './domains/system/tables.js';
import { muser } from './domains/accounts/tables.js';
import { shopOrder } from './domains/orders/tables.js';
import { assessment } from './domains/assessments/tables.js';
import { idNumber } from './domains/persons/test-roster.js';
import { registration } from './domains/consultation/tables.js';
import { secondFactor } from './domains/auth/tables.js';
import { DEMO_SECOND_FACTOR } from './domains/auth/demo.js';
import { currentCode } from './domains/auth/second-factor.js';
import { md5Upper } from './domains/auth/passwords.js';

const rowsOf = async <T>(s: TestServer, query: ReturnType<typeof sql>) => ((await s.database.db.execute(query)) as unknown as { rows: T[] }).rows;

/**
 * Whether the match at v[i, i+n) is part of a longer word of letters and digits: a district code
 * of an archive answer (330108) inside a random hex id (R…F330108A…) is not a copy of it (a demo
 * seed once made one, failing the scan), a copy stands as a value or between punctuation.
 */
const ALNUM = /[0-9A-Za-z]/;
const insideToken = (v: string, i: number, n: number) =>
  (ALNUM.test(v[i]!) && ALNUM.test(v[i - 1] ?? '')) || (ALNUM.test(v[i + n - 1]!) && ALNUM.test(v[i + n] ?? ''));

/**
 * Every identifier of `secrets` found in plain text anywhere in the database: every text, varchar
 * and jsonb column of every table, read raw. Phone numbers are 11 characters, ID numbers 18: each
 * window of those lengths of every cell is looked up.
 */
async function plainFinds(s: TestServer, secrets: Set<string>): Promise<string[]> {
  const columns = await rowsOf<{ table_name: string; column_name: string }>(
    s,
    sql`select table_name, column_name from information_schema.columns
        where table_schema = current_schema() and data_type in ('text', 'jsonb', 'character varying', 'json', 'ARRAY')`,
  );
  const found: string[] = [];
  const lengths = [...new Set([...secrets].map((x) => x.length))];
  for (const c of columns) {
    const cells = await rowsOf<{ v: string | null }>(s, sql`select ${sql.identifier(c.column_name)}::text as v from ${sql.identifier(c.table_name)}`);
    for (const { v } of cells) {
      if (!v) continue;
      for (let i = 0; i < v.length; i++)
        for (const n of lengths) {
          const w = v.slice(i, i + n);
          if (secrets.has(w) && !insideToken(v, i, n)) found.push(`${c.table_name}.${c.column_name}: ${w}`);
        }
    }
  }
  return found;
}

describe.each(engines('both'))('field encryption on %s', (engine) => {
  let s: TestServer;
  let school: string;
  beforeAll(async () => {
    s = await startTestServer(engine, { demoReports: true });
    school = (await s.login('schooladmin')).token;
  });
  afterAll(() => s?.close());

  /** The identifiers of every seeded person and staff user, opened from the database. */
  async function seededIdentifiers() {
    const people = await s.database.db.select({ phone: cuser.phonenumber, id: cuser.idcard }).from(cuser);
    const staff = await s.database.db.select({ phone: sysuser.phonenumber }).from(sysuser);
    const plain = [...people.flatMap((p) => [open(p.phone), open(p.id)]), ...staff.map((u) => open(u.phone))].filter((x): x is string => !!x);
    return { people, staff, plain: new Set(plain) };
  }

  it('after the demo seed, no phone or ID number of a person or staff user is in plain text in any column of any table', async () => {
    const { people, staff, plain } = await seededIdentifiers();
    expect(people.length).toBeGreaterThan(100);
    // The scan looks for something: hundreds of numbers, the demo staff's among them.
    expect(plain.size).toBeGreaterThan(300);
    expect(plain.has('13812345678')).toBe(true);
    for (const v of [...people.flatMap((p) => [p.phone, p.id]), ...staff.map((u) => u.phone)]) if (v) expect(isSealed(v), v).toBe(true);
    expect(await plainFinds(s, plain)).toEqual([]);
    // Free-text answers: none left as `text` in stored answers (kept as `sealed`).
    expect(await countUnsealed(s.database.db, sealedFields)).toBe(0);
  });

  it('institution account and department phones are sealed at rest, in full on the account form and in one\'s own record, masked in the list', async () => {
    const { token: admin } = await s.login('admin');
    expect((await s.call('as.m.user.updateMUser', { musercode: 'I0001', realname: '王老师', phonenumber: '13955550001' }, admin)).errorCode).toBe(0);
    const made = await s.call('as.m.system.dept.insertDept', { deptname: '教务处', phonenumber: '13955550009' }, school);
    expect(made.errorCode).toBe(0);
    // Changed afterwards: neither number is left in plain text anywhere (the audit entry's detail included).
    expect((await s.call('as.m.system.dept.updateDept', { deptid: made.data.deptid, phonenumber: '13955550002' }, school)).errorCode).toBe(0);
    const [account] = await s.database.db.select({ phone: muser.phonenumber }).from(muser).where(eq(muser.musercode, 'I0001'));
    const [made2] = await s.database.db.select({ phone: dept.phonenumber }).from(dept).where(eq(dept.deptid, made.data.deptid));
    const [demo] = await s.database.db.select({ phone: dept.phonenumber }).from(dept).where(eq(dept.deptid, 'D0001'));
    for (const v of [account!.phone, made2!.phone, demo!.phone]) expect(isSealed(v), v).toBe(true);
    expect(await plainFinds(s, new Set(['13955550001', '13955550002', '13955550009', '0571-86000001']))).toEqual([]);

    expect((await s.call('as.m.user.getMUser', { musercode: 'I0001' }, admin)).data.phonenumber).toBe('13955550001');
    const listed = (await s.call('as.m.user.getMUserPageList', { page: 1, pageSize: 100 }, admin)).data.rows as { musercode: string; phonenumber: string }[];
    expect(listed.find((r) => r.musercode === 'I0001')?.phonenumber).toBe('139****0001');
    expect((await s.login('school')).phonenumber).toBe('13955550001');
    const depts = (await s.call('as.m.system.dept.selectDeptList', {}, school)).data as { deptid: string; phonenumber: string }[];
    expect(depts.find((d) => d.deptid === made.data.deptid)?.phonenumber).toBe('13955550002');
    expect(depts.find((d) => d.deptid === 'D0001')?.phonenumber).toBe('0571-86000001');
  });

  it('staff and department emails are sealed at rest, masked in the staff list, in full on the user form and in the department list', async () => {
    const user = await s.call('as.m.system.user.insertUser', { sysusername: 'mailtest', pwd: md5Upper('Mail12345'), realname: '邮件', roleids: [], email: 'wang.li@school.example.cn' }, school);
    expect(user.errorCode, user.errorMsg).toBe(0);
    const { userid } = user.data as { userid: string };
    expect((await s.call('as.m.system.user.updateUser', { userid, email: 'li.wang@school.example.cn' }, school)).errorCode).toBe(0);
    const made = await s.call('as.m.system.dept.insertDept', { deptname: '总务处', email: 'zwc@school.example.cn' }, school);
    expect(made.errorCode, made.errorMsg).toBe(0);
    const [staffRow] = await s.database.db.select({ email: sysuser.email }).from(sysuser).where(eq(sysuser.userid, userid));
    const [deptRow] = await s.database.db.select({ email: dept.email }).from(dept).where(eq(dept.deptid, made.data.deptid));
    // The demo's own (a teacher's and a department's, seeded plain and sealed at start) too.
    const [demoStaff] = await s.database.db.select({ email: sysuser.email }).from(sysuser).where(eq(sysuser.userid, 'U0001'));
    const [demoDept] = await s.database.db.select({ email: dept.email }).from(dept).where(eq(dept.deptid, 'D0002'));
    for (const v of [staffRow!.email, deptRow!.email, demoStaff!.email, demoDept!.email]) expect(isSealed(v), v).toBe(true);
    expect(open(demoDept!.email)).toBe('xljk@bjyz.example.cn');
    const emails = ['wang.li@school.example.cn', 'li.wang@school.example.cn', 'zwc@school.example.cn', 'wang.teacher@bjyz.example.cn', 'xljk@bjyz.example.cn'];
    expect(await plainFinds(s, new Set(emails))).toEqual([]);

    const listed = (await s.call('as.m.system.user.selectUserList', { page: 1, pageSize: 100, sysusername: 'mailtest' }, school)).data.rows as { email: string }[];
    expect(listed.map((r) => r.email)).toEqual(['l***@school.example.cn']);
    expect((await s.call('as.m.system.user.selectUserById', { userid }, school)).data.user.email).toBe('li.wang@school.example.cn');
    const depts = (await s.call('as.m.system.dept.selectDeptList', {}, school)).data as { deptid: string; email: string }[];
    expect(depts.find((d) => d.deptid === made.data.deptid)?.email).toBe('zwc@school.example.cn');
  });

  it('an export filtered by a whole phone or ID number is audited without the number', async () => {
    const [p] = await s.database.db
      .select({ musercode: cuser.musercode, phone: cuser.phonenumber, id: cuser.idcard })
      .from(cuser)
      .where(sql`${cuser.idcard} is not null and ${cuser.phonenumber} is not null and ${cuser.musercode} = 'I0001'`)
      .limit(1);
    const [phone, id] = [open(p!.phone)!, open(p!.id)!];
    for (const filter of [{ phonenumber: phone }, { idcard: id }]) {
      const res = await s.raw('as.m.cuser.exportCuserList', JSON.stringify(filter), { token: school });
      expect(res.statusCode).toBe(200);
    }
    expect(await plainFinds(s, new Set([phone, id]))).toEqual([]);
  });

  it('a buyer\'s phone is sealed at rest; the order list finds an order by the whole number and shows it masked', async () => {
    const orders = await s.database.db.select({ phone: shopOrder.buyerphone }).from(shopOrder);
    expect(orders.length).toBeGreaterThan(0);
    for (const o of orders) expect(isSealed(o.phone), o.phone).toBe(true);
    expect(await plainFinds(s, new Set(['13800001234', '13900005678', '13700002468']))).toEqual([]);
    const { token: admin } = await s.login('admin');
    const found = await s.call('as.m.order.getOrderPage', { page: 1, pageSize: 100, buyer: '138-0000-1234' }, admin);
    expect(found.errorCode).toBe(0);
    const phones = (found.data.rows as { buyerphone: string }[]).map((r) => r.buyerphone);
    expect(phones.length).toBeGreaterThan(0);
    expect(new Set(phones)).toEqual(new Set(['138****1234']));
  });

  it('archive free text, registrations\' phones and answers and the demo TOTP secret are sealed; the demo account still signs in with its code', async () => {
    const free = (answers: ArchiveAnswer[]) => openArchiveAnswers(answers).flatMap((a) => (typeof a.value === 'string' && a.value.length >= 6 ? [a.value] : []));
    const people = await s.database.db.select({ archive: cuser.archive }).from(cuser);
    const regs = await s.database.db.select({ phone: registration.phone, answers: registration.answers }).from(registration);
    const archiveText = people.flatMap((p) => free(p.archive));
    const regText = regs.flatMap((r) => free(r.answers));
    const regPhones = regs.map((r) => open(r.phone)).filter((x): x is string => !!x);
    // The scan looks for something: the demo's archives and registrations hold free text and phones.
    expect(archiveText.length).toBeGreaterThan(10);
    expect(regText.length).toBeGreaterThan(0);
    expect(regPhones).toContain('13812345601');
    for (const r of regs) if (r.phone) expect(isSealed(r.phone)).toBe(true);
    const [sf] = await s.database.db.select().from(secondFactor).where(eq(secondFactor.musercode, DEMO_SECOND_FACTOR.musercode));
    expect(isSealed(sf!.secret)).toBe(true);
    expect(open(sf!.secret)).toBe(DEMO_SECOND_FACTOR.secret);
    // An archive may repeat an institution's public name or district code: those tables (and the
    // institution's consent notice, which names it) are not the answers' copies.
    const finds = await plainFinds(s, new Set([...archiveText, ...regText, ...regPhones, DEMO_SECOND_FACTOR.secret]));
    expect(finds.filter((f) => !/^(muser|dept|consent_notice)\./.test(f))).toEqual([]);
    // Sealed, the secret still checks codes: password, then the code of the next step.
    s.clock.advance(30_000);
    const first = await s.call('as.m.user.login', { username: DEMO_SECOND_FACTOR.username, pwd: md5Upper('demo123') });
    expect(first.errorCode, first.errorMsg).toBe(0);
    const done = await s.call('as.m.user.loginSecondFactor', { challenge: first.data.challenge, code: currentCode(DEMO_SECOND_FACTOR.secret, s.clock.now()) });
    expect(done.errorCode, done.errorMsg).toBe(0);
    expect(done.data.token).toBeTruthy();
  });

  it('archive and registration answers written in plain text are sealed at start and shown opened', async () => {
    const [p] = await s.database.db.select().from(cuser).where(sql`jsonb_array_length(${cuser.archive}) > 0`).limit(1);
    const [r] = await s.database.db.select().from(registration).limit(1);
    const plainArchive = [...openArchiveAnswers(p!.archive), { no: 998, value: 'archive-secret-text' }];
    await s.database.db.update(cuser).set({ archive: plainArchive }).where(eq(cuser.cusercode, p!.cusercode));
    await s.database.db.update(registration).set({ phone: '13700009999', answers: [...openArchiveAnswers(r!.answers), { no: 998, value: 'reg-secret-text' }] }).where(eq(registration.regid, r!.regid));
    const secrets = new Set(['archive-secret-text', 'reg-secret-text', '13700009999']);
    expect(await plainFinds(s, secrets)).toEqual(expect.arrayContaining(['cuser.archive: archive-secret-text', 'registration.answers: reg-secret-text', 'registration.phone: 13700009999']));
    await readyEncryption(s.database.db, testConfig(), true);
    expect(await plainFinds(s, secrets)).toEqual([]);
    expect(await countUnsealed(s.database.db, sealedFields)).toBe(0);
    const [after] = await s.database.db.select().from(cuser).where(eq(cuser.cusercode, p!.cusercode));
    expect(openArchiveAnswers(after!.archive).at(-1)).toEqual({ no: 998, value: 'archive-secret-text' });
    const [reg] = await s.database.db.select().from(registration).where(eq(registration.regid, r!.regid));
    expect(open(reg!.phone)).toBe('13700009999');
    // The console's read opens them for the row shown.
    const read = await s.call('as.m.registration.getRegistration', { regid: r!.regid }, school);
    expect(read.errorCode, read.errorMsg).toBe(0);
    expect(read.data.phone).toBe('13700009999');
  });

  it('the scan can fail: a plain number written by SQL is found, and the start-up step seals it', async () => {
    const [p] = await s.database.db.select().from(cuser).limit(1);
    const phone = open(p!.phonenumber)!;
    // As a database from before the field_encryption migration holds it.
    await s.database.db.update(cuser).set({ phonenumber: phone, phonehash: null }).where(eq(cuser.cusercode, p!.cusercode));
    expect(await plainFinds(s, new Set([phone]))).toEqual([`cuser.phonenumber: ${phone}`]);
    expect(await readyEncryption(s.database.db, testConfig(), true)).toBe(1);
    expect(await plainFinds(s, new Set([phone]))).toEqual([]);
    // Sealed with its blind index: the list finds the person by the number again.
    const found = await s.call('as.m.cuser.getCUserPageList', { phonenumber: phone, musercode: p!.musercode }, school);
    expect(found.errorCode, found.errorMsg).toBe(0);
  });

  it('seals free-text answers of a report written in plain text (an upgraded database) and opens them for the read', async () => {
    const [r] = await s.database.db.select().from(assessment).limit(1);
    const answers = [...(r!.answers as object[]), { no: 999, text: '最近总是睡不着 secret-free-text' }];
    await s.database.db.update(assessment).set({ answers }).where(eq(assessment.assessid, r!.assessid));
    await readyEncryption(s.database.db, testConfig(), true);
    const [after] = await s.database.db.select().from(assessment).where(eq(assessment.assessid, r!.assessid));
    expect(JSON.stringify(after!.answers)).not.toContain('secret-free-text');
    expect(openAnswers(after!.answers as { no: number; text?: string }[]).at(-1)).toEqual({ no: 999, text: '最近总是睡不着 secret-free-text' });
  });

  it('finds a person and a staff user by the exact number through the blind index, masked in the list', async () => {
    const made = await s.call('as.m.cuser.insertCUser', { appid: '000000002', realname: '陈一一', gender: '01', phonenumber: '13912340001', idcard: idNumber('330108', '20100101', 31) }, school);
    expect(made.errorCode, made.errorMsg).toBe(0);
    const byPhone = await s.call('as.m.cuser.getCUserPageList', { phonenumber: '13912340001' }, school);
    expect(byPhone.data.rows.map((r: { cusercode: string }) => r.cusercode)).toEqual([made.data.cusercode]);
    const byId = await s.call('as.m.cuser.getCUserPageList', { idcard: idNumber('330108', '20100101', 31).toLowerCase() }, school);
    expect(byId.data.rows.map((r: { cusercode: string }) => r.cusercode)).toEqual([made.data.cusercode]);
    // A part of a number is refused (a sealed number cannot be searched by part); the staff list's free-form phone finds nothing.
    expect((await s.call('as.m.cuser.getCUserPageList', { phonenumber: '1391234' }, school)).errorCode).not.toBe(0);
    expect((await s.call('as.m.system.user.selectUserList', { phonenumber: '1381234' }, school)).data.rows).toEqual([]);
    const staff = await s.call('as.m.system.user.selectUserList', { phonenumber: '13812345678' }, school);
    expect(staff.data.rows.map((r: { sysusername: string; phonenumber: string }) => [r.sysusername, r.phonenumber])).toEqual([['teacher', '138****5678']]);
  });

  it('a tampered ciphertext is refused with an error, never shown', async () => {
    const made = await s.call('as.m.cuser.insertCUser', { appid: '000000002', realname: '周二二', gender: '02', phonenumber: '13912340002' }, school);
    const cusercode = made.data.cusercode as string;
    const [row] = await s.database.db.select({ phone: cuser.phonenumber }).from(cuser).where(eq(cuser.cusercode, cusercode));
    // One character of the ciphertext changed: the GCM tag no longer matches.
    const v = row!.phone!;
    const tampered = v.slice(0, -3) + (v.at(-3) === 'A' ? 'B' : 'A') + v.slice(-2);
    await s.database.db.update(cuser).set({ phonenumber: tampered }).where(eq(cuser.cusercode, cusercode));
    const read = await s.call('as.m.assess.getCUser', { cusercode }, school);
    expect(read.errorCode).not.toBe(0);
    expect(read.data ?? null).toBeNull();
    expect(read.errorMsg).toMatch(/完整性校验/);
    const list = await s.call('as.m.cuser.getCUserPageList', { realname: '周二二' }, school, { 'accept-language': 'en-US' });
    expect(list.errorCode).not.toBe(0);
    expect(JSON.stringify(list)).not.toContain('1391234');
    // Relabelled to another key id, it is refused too (the key id is bound into the tag).
    const relabelled = v.replace(/^v1\.[\w-]{8}\./, 'v1.AAAAAAAA.');
    expect(() => open(relabelled)).toThrow();
    await s.database.db.update(cuser).set({ phonenumber: v }).where(eq(cuser.cusercode, cusercode));
    expect((await s.call('as.m.assess.getCUser', { cusercode }, school)).errorCode).toBe(0);
  });

  it('rotation re-encrypts every row in batches while reads and writes go on; the old key can then be dropped', async () => {
    const old = currentKey();
    const next = parseDataKey(newDataKeyText());
    // The server restarted with the new key current and the old one still read.
    useDataKeys(next, [old]);
    let batches = 0;
    const { resealed, left } = await rotateDataKey(s.database.db, s.clock.now(), {
      batch: 40,
      onBatch: async () => {
        // Mid-rotation: lists read rows under both keys; a new person is written under the new one.
        if (++batches % 3) return;
        const list = await s.call('as.m.cuser.getCUserPageList', { pageSize: 50 }, school);
        expect(list.errorCode, list.errorMsg).toBe(0);
        const made = await s.call('as.m.cuser.insertCUser', { appid: '000000002', realname: '轮换中', gender: '01', phonenumber: `1390000${String(batches).padStart(4, '0')}` }, school);
        expect(made.errorCode, made.errorMsg).toBe(0);
      },
    });
    expect(batches).toBeGreaterThan(5);
    expect(resealed['cuser.phonenumber']).toBeGreaterThan(100);
    expect(left).toBe(0);
    const stored = await s.database.db.select({ phone: cuser.phonenumber, id: cuser.idcard }).from(cuser);
    for (const v of stored.flatMap((p) => [p.phone, p.id])) if (v) expect(v.startsWith(`v1.${next.id}.`), v).toBe(true);
    const staff = await s.database.db.select({ phone: sysuser.phonenumber }).from(sysuser);
    for (const u of staff) if (u.phone) expect(u.phone.startsWith(`v1.${next.id}.`)).toBe(true);
    // The old key dropped: everything still reads, and the blind index (re-sealed, unchanged) still finds.
    useDataKeys(next);
    const list = await s.call('as.m.cuser.getCUserPageList', { phonenumber: '13912340001' }, school);
    expect(list.errorCode, list.errorMsg).toBe(0);
    expect(list.data.rows).toHaveLength(1);
    expect((await s.call('as.m.system.user.selectUserList', { phonenumber: '13812345678' }, school)).data.rows).toHaveLength(1);
    // Other databases of this test process were sealed under the old key: keep it readable for them.
    useDataKeys(old, [next]);
  });
});

describe('data key configuration', () => {
  it('production on PostgreSQL refuses to start without a key; the embedded database makes one in its folder, 0600, once', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-key-'));
    const before = currentKey();
    try {
      expect(() => installDataKeys({ previous: [] }, { dataDir: dir, embedded: false, production: true })).toThrow(/DATA_KEY/);
      const made = installDataKeys({ previous: [] }, { dataDir: dir, embedded: true, production: true });
      const file = path.join(dir, 'data.key');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(installDataKeys({ previous: [] }, { dataDir: dir, embedded: true, production: true }).id).toBe(made.id);
      expect(() => installDataKeys({ current: 'c2hvcnQ=', previous: [] }, { dataDir: dir, embedded: true, production: true })).toThrow(/32/);
    } finally {
      useDataKeys(before);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

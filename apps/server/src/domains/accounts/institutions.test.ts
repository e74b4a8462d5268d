import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { ErrorCode, type MUserRow } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { md5Upper } from '../auth/index.js';
import { auditLog } from '../audit/tables.js';
import { sysuser } from '../system/tables.js';
import { demoAccounts } from '../../seed/demo.js';
import { checkRegion } from './regions.js';
import { muser, muserEntry, signinName } from './tables.js';
import { seal } from '../../kit/crypt/index.js';
import { cuser } from '../persons/tables.js';

const EN = { 'accept-language': 'en-US' };
const codes = (rows: MUserRow[]) => rows.map((r) => r.musercode).sort();

/** A valid create body; tests change one thing at a time. */
const body = (username: string, more: Record<string, unknown> = {}) => ({
  username,
  pwd: md5Upper('Abc123'),
  musertype: '001',
  insname: `学校 ${username}`,
  provincecode: '330000',
  citycode: '330100',
  districtcode: '330108',
  ...more,
});

describe.each(engines())('institutions and providers on %s', (engine) => {
  let s: TestServer;
  let admin: string;
  let provider: string;
  let provider2: string;
  let school: string;
  beforeAll(async () => {
    s = await startTestServer(engine);
    admin = (await s.login('admin')).token;
    provider = (await s.login('provider')).token;
    provider2 = (await s.login('provider2')).token;
    school = (await s.login('school')).token;
  });
  afterAll(() => s?.close());

  const accounts = async () => Number((await s.database.db.select({ n: count() }).from(muser))[0]!.n);
  const account = async (musercode: string) => (await s.database.db.select().from(muser).where(eq(muser.musercode, musercode)))[0];
  const ping = async (token: string) => (await s.call('as.m.system.ping', {}, token)).errorCode;
  const audited = async (action: string) =>
    (
      await s.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, action), eq(auditLog.result, 'ok')))
    ).map((a) => a.detail);

  it('demo regions are GB/T 2260 codes that nest, with the names the data package gives', () => {
    const withRegion = demoAccounts.filter((a) => a.extra?.provincecode);
    expect(withRegion.length).toBeGreaterThanOrEqual(8);
    for (const a of withRegion) {
      const { provincecode, citycode, districtcode, regionname } = a.extra as Record<string, string>;
      expect(checkRegion({ provincecode: provincecode!, citycode: citycode!, districtcode: districtcode! }), a.username).toBe(regionname);
    }
  });

  it('lists a provider’s institutions with masked phones and filters; another provider’s are not found', async () => {
    await s.database.db.update(muser).set({ phonenumber: seal('13912345678') }).where(eq(muser.musercode, 'I0001'));
    const all = await s.call('as.m.user.getMUserPageList', { kind: 'institution' }, provider);
    expect(all.errorCode).toBe(0);
    expect(codes(all.data.rows)).toEqual(['I0001', 'I0002', 'I0003']);
    const i1 = all.data.rows.find((r: MUserRow) => r.musercode === 'I0001');
    expect(i1).toMatchObject({
      phonenumber: '139****5678',
      parentcode: 'P0001',
      parentname: '安心心理服务有限公司',
      regionname: '浙江省杭州市滨江区',
      categorylevel: 3,
    });

    const filter = async (f: Record<string, unknown>, token = provider) =>
      codes((await s.call('as.m.user.getMUserPageList', { kind: 'institution', ...f }, token)).data.rows);
    expect(await filter({ citycode: '330200' })).toEqual(['I0003']);
    expect(await filter({ provincecode: '330000', districtcode: '330106' })).toEqual(['I0002']);
    expect(await filter({ categorycode: '中学' })).toEqual(['I0001']);
    expect(await filter({ musertype: '002' })).toEqual(['I0002']);
    expect(await filter({ insname: '养老' })).toEqual(['I0003']);
    expect(await filter({ username: 'SCHOOL' })).toEqual(['I0001']);
    expect(await filter({ enabled: 0 })).toEqual([]);
    expect(await filter({ parentcode: 'P0002' }, admin)).toEqual(['I0006', 'I0007', 'I0008']);
    expect(await filter({ categorycode: '教育' }, admin)).toEqual(['I0001', 'I0006']);

    // The provider page: the super account sees every provider, never itself; a provider sees itself.
    expect(codes((await s.call('as.m.user.getMUserPageList', { kind: 'provider' }, admin)).data.rows)).toEqual(['I0005', 'P0001', 'P0002']);
    expect(codes((await s.call('as.m.user.getMUserPageList', { kind: 'provider' }, provider)).data.rows)).toEqual(['P0001']);

    expect((await s.call('as.m.user.getMUserPageList', { parentcode: 'P0002' }, provider)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.user.getMUserPageList', {}, school)).errorCode).toBe(ErrorCode.permissionDenied);
  });

  it('reads one account in full (audited); another provider’s institution is not found', async () => {
    const res = await s.call('as.m.user.getMUser', { musercode: 'I0001' }, provider);
    expect(res.data).toMatchObject({ musercode: 'I0001', phonenumber: '13912345678', username: 'school' });
    expect(await audited('as.m.user.getMUser')).toContainEqual({ target: 'I0001' });
    expect((await s.call('as.m.user.getMUser', { musercode: 'I0006' }, provider)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.user.getMUser', { musercode: 'I0001' }, school)).errorCode).toBe(ErrorCode.permissionDenied);
  });

  it('a provider creates an institution under itself with a region, a category path and a respondent link', async () => {
    const res = await s.call(
      'as.m.user.addMUser',
      body('newschool', { categorycode0: '教育', categorycode1: '高中', realname: '周老师', phonenumber: '13700001111' }),
      provider,
    );
    expect(res.errorCode).toBe(0);
    const created = await account(res.data.musercode);
    expect(created).toMatchObject({
      username: 'newschool',
      musertype: '001',
      parentcode: 'P0001',
      regionname: '浙江省杭州市滨江区',
      categorylevel: 2,
      categorycode: '高中',
      enabled: 1,
    });
    const [entry] = await s.database.db.select().from(muserEntry).where(eq(muserEntry.musercode, res.data.musercode));
    expect(created!.qrcodeurl).toBe(`http://localhost:3000/r/${entry!.token}`);
    // It signs in with the password it was given, and its record carries the link.
    const record = await s.login('newschool', 'Abc123');
    expect(record).toMatchObject({
      musercode: res.data.musercode,
      qrcodeurl: created!.qrcodeurl,
      provincecode: '330000',
      categorycode1: '高中',
    });
    expect(await audited('as.m.user.addMUser')).toContainEqual({
      target: res.data.musercode,
      username: 'newschool',
      musertype: '001',
      parentcode: 'P0001',
    });
    // The provider's scope takes it in at once.
    expect(codes((await s.call('as.m.user.getMUserPageList', { kind: 'institution' }, provider)).data.rows)).toContain(res.data.musercode);
  });

  it('refuses bad input in the caller’s language and changes nothing', async () => {
    const before = await accounts();
    const names = async () => Number((await s.database.db.select({ n: count() }).from(signinName))[0]!.n);
    const namesBefore = await names();
    const refused = async (b: Record<string, unknown>, code: number, en: RegExp, token = provider) => {
      const res = await s.call('as.m.user.addMUser', b, token, EN);
      expect(res.errorCode, JSON.stringify(b)).toBe(code);
      expect(res.errorMsg).toMatch(en);
      const zh = await s.call('as.m.user.addMUser', b, token);
      expect(zh.errorMsg).toMatch(/[\u4e00-\u9fff]/);
    };
    // Duplicate names: an account's, any case, and a staff user's.
    await refused(body('school'), ErrorCode.conflict, /already taken/);
    await refused(body('SCHOOL'), ErrorCode.conflict, /already taken/);
    await refused(body('teacher'), ErrorCode.conflict, /already taken/);
    // Regions: unknown, a city of another province, a district of another city, a missing district.
    await refused(body('r1', { provincecode: '990000' }), ErrorCode.validation, /Unknown province code/);
    await refused(body('r2', { citycode: '440100' }), ErrorCode.validation, /not a city of 330000/);
    await refused(body('r3', { districtcode: '330203' }), ErrorCode.validation, /not a district of 330100/);
    await refused(body('r4', { districtcode: '' }), ErrorCode.validation, /Choose a district/);
    // A category path that skips a level.
    await refused(body('c1', { categorycode0: '教育', categorycode2: '初中' }), ErrorCode.validation, /cannot skip a level/);
    // Types: a provider creates no provider.
    await refused(body('t1', { musertype: '005' }), ErrorCode.permissionDenied, /institutions \(types 001–004\) only/);
    // Passwords the server can still judge from the MD5: empty, or the account name.
    await refused(body('w1', { pwd: md5Upper('') }), ErrorCode.validation, /Password format incorrect/);
    await refused(body('w2', { pwd: md5Upper('w2') }), ErrorCode.validation, /Password format incorrect/);
    // A password that is not an uppercase MD5 (the console hashes what the user typed).
    expect((await s.call('as.m.user.addMUser', body('w3', { pwd: 'abc' }), provider)).errorCode).toBe(ErrorCode.validation);
    // An owner that is not the caller: another provider (not found), an institution, itself as provider.
    expect((await s.call('as.m.user.addMUser', body('o1', { parentcode: 'P0002' }), provider)).errorCode).toBe(ErrorCode.notFound);
    await refused(body('o2', { parentcode: 'I0001' }), ErrorCode.validation, /must be a provider/);
    expect(await accounts()).toBe(before);
    expect(await names()).toBe(namesBefore);
  });

  it('an institution creates no account even when it holds the institution menu code', async () => {
    expect(
      (await s.call('as.m.permissions.updateUserPermissions', { musercode: 'I0003', permissions: ['00020', '00021'] }, provider)).errorCode,
    ).toBe(0);
    const eldercare = (await s.login('eldercare')).token;
    const before = await accounts();
    const res = await s.call('as.m.user.addMUser', body('byinst'), eldercare, EN);
    expect(res).toMatchObject({
      errorCode: ErrorCode.permissionDenied,
      errorMsg: 'An institution cannot create institutions or providers',
    });
    const asProvider = await s.call('as.m.user.addMUser', body('byinst2', { musertype: '005' }), eldercare, EN);
    expect(asProvider.errorCode).toBe(ErrorCode.permissionDenied);
    expect(await accounts()).toBe(before);
    // Without the code at all: the permission check refuses first.
    expect((await s.call('as.m.user.addMUser', body('byschool'), school)).errorCode).toBe(ErrorCode.permissionDenied);
  });

  it('the super account creates providers and institutions under a provider it names', async () => {
    const p = await s.call('as.m.user.addMUser', body('newprovider', { musertype: '005', insname: '新服务商' }), admin);
    expect(p.errorCode).toBe(0);
    expect(await account(p.data.musercode)).toMatchObject({ musertype: '005', parentcode: null, qrcodeurl: '' });
    const i = await s.call('as.m.user.addMUser', body('underp2', { musertype: '004', parentcode: 'P0002' }), admin);
    expect(i.errorCode).toBe(0);
    expect((await account(i.data.musercode))!.parentcode).toBe('P0002');
    expect((await s.call('as.m.user.addMUser', body('pp', { musertype: '005', parentcode: 'P0002' }), admin)).errorCode).toBe(
      ErrorCode.validation,
    );
    expect((await s.call('as.m.user.addMUser', body('nosuchparent', { parentcode: 'NOSUCH' }), admin)).errorCode).toBe(ErrorCode.notFound);
  });

  it('12 parallel creates of one account name leave exactly one account', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => s.call('as.m.user.addMUser', body('raceschool'), provider, EN)));
    expect(answers.filter((a) => a.errorCode === 0)).toHaveLength(1);
    for (const a of answers.filter((x) => x.errorCode !== 0))
      expect(a).toMatchObject({ errorCode: ErrorCode.conflict, errorMsg: expect.stringMatching(/already taken/) });
    expect(await s.database.db.select().from(muser).where(eq(muser.username, 'raceschool'))).toHaveLength(1);
    expect(
      await s.database.db
        .select()
        .from(muserEntry)
        .innerJoin(muser, eq(muser.musercode, muserEntry.musercode))
        .where(eq(muser.username, 'raceschool')),
    ).toHaveLength(1);
  });

  it('an account and a staff user racing for one name leave exactly one of them', async () => {
    const [a, u] = await Promise.all([
      s.call('as.m.user.addMUser', body('Contested'), provider),
      s.call('as.m.system.user.insertUser', { sysusername: 'contested', pwd: md5Upper('Abc123'), realname: '争用' }, school),
    ]);
    expect([a.errorCode, u.errorCode].sort()).toEqual([0, ErrorCode.conflict]);
    const accountsNamed = await s.database.db.select().from(muser).where(eq(muser.username, 'Contested'));
    const usersNamed = await s.database.db.select().from(sysuser).where(eq(sysuser.sysusername, 'contested'));
    expect(accountsNamed.length + usersNamed.length).toBe(1);
  });

  it('disabling an account ends its sessions, its staff users’ and login-as sessions at once', async () => {
    const hospital = (await s.login('hospital')).token;
    const doctor = (await s.login('doctor')).token;
    const actingAs = (await s.call('as.m.user.loginAs', { musercode: 'I0002' }, provider)).data.token;
    for (const t of [hospital, doctor, actingAs]) expect(await ping(t)).toBe(0);

    expect((await s.call('as.m.user.enableMuser', { musercode: 'I0002', enabled: 0 }, provider)).errorCode).toBe(0);
    for (const t of [hospital, doctor, actingAs]) expect(await ping(t)).toBe(ErrorCode.identityInvalid);
    expect((await s.call('as.m.user.login', { username: 'hospital', pwd: md5Upper('demo123') })).errorCode).not.toBe(0);
    expect(await audited('as.m.user.enableMuser')).toContainEqual({ target: 'I0002', enabled: 0 });

    expect((await s.call('as.m.user.enableMuser', { musercode: 'I0002', enabled: 1 }, provider)).errorCode).toBe(0);
    expect(await ping((await s.login('hospital')).token)).toBe(0);
  });

  it('enable, category and delete refuse the caller’s own account, other providers’ institutions and callers without the code', async () => {
    for (const [name, extra] of [
      ['as.m.user.enableMuser', { enabled: 0 }],
      ['as.m.user.updateMUserCategory', { categorycode0: 'x' }],
      ['as.m.user.deleteMUser', {}],
    ] as const) {
      expect((await s.call(name, { musercode: 'P0001', ...extra }, provider)).errorCode, name).toBe(ErrorCode.permissionDenied);
      expect((await s.call(name, { musercode: 'I0006', ...extra }, provider)).errorCode, name).toBe(ErrorCode.notFound);
      expect((await s.call(name, { musercode: 'I0001', ...extra }, school)).errorCode, name).toBe(ErrorCode.permissionDenied);
      expect((await s.call(name, { musercode: 'M0000', ...extra }, provider)).errorCode, name).toBe(ErrorCode.notFound);
    }
    expect(await account('I0006')).toMatchObject({ enabled: 1, categorycode0: '教育' });
    expect(await ping(provider2)).toBe(0);
  });

  it('moves an account within the category tree; a path that skips a level changes nothing', async () => {
    const move = await s.call(
      'as.m.user.updateMUserCategory',
      { musercode: 'I0003', categorycode0: '养老', categorycode1: '机构养老', categorycode2: '护理院' },
      provider,
    );
    expect(move.errorCode).toBe(0);
    expect(await account('I0003')).toMatchObject({
      categorycode0: '养老',
      categorycode1: '机构养老',
      categorycode2: '护理院',
      categorycode3: '',
      categorylevel: 3,
      categorycode: '护理院',
    });
    const skip = await s.call(
      'as.m.user.updateMUserCategory',
      { musercode: 'I0003', categorycode0: '养老', categorycode3: '跳级' },
      provider,
      EN,
    );
    expect(skip).toMatchObject({ errorCode: ErrorCode.validation, errorMsg: expect.stringMatching(/cannot skip a level/) });
    expect(await account('I0003')).toMatchObject({ categorycode2: '护理院', categorycode3: '' });
    // Cleared entirely: level 0.
    expect((await s.call('as.m.user.updateMUserCategory', { musercode: 'I0003' }, provider)).errorCode).toBe(0);
    expect(await account('I0003')).toMatchObject({ categorylevel: 0, categorycode: '', categorycode0: '' });
    expect(await audited('as.m.user.updateMUserCategory')).toContainEqual({ target: 'I0003', categorycode: '护理院' });
  });

  it('answers the category tree of the accounts in scope', async () => {
    const tree = (await s.call('as.m.user.getMUserCategoryTree', { kind: 'institution' }, admin)).data;
    const edu = tree.find((n: { code: string }) => n.code === '教育');
    expect(edu).toMatchObject({ level: 0 });
    expect(edu.children.map((c: { code: string }) => c.code)).toEqual(expect.arrayContaining(['中学', '小学', '高中']));
    const mine = (await s.call('as.m.user.getMUserCategoryTree', {}, provider2)).data;
    expect(mine.map((n: { code: string }) => n.code).sort()).toEqual(['企业', '医疗', '教育', '服务商'].sort());
    expect((await s.call('as.m.user.getMUserCategoryTree', {}, school)).errorCode).toBe(ErrorCode.permissionDenied);
  });

  it('deletes an account only when it owns nothing, ending its sessions', async () => {
    const en = async (musercode: string, token = provider) => s.call('as.m.user.deleteMUser', { musercode }, token, EN);
    const staff = await en('I0001');
    expect(staff).toMatchObject({ errorCode: ErrorCode.conflict, errorMsg: expect.stringMatching(/still has \d+ staff users, \d+ persons, 1 plans/) });
    expect((await en('P0001')).errorCode).toBe(ErrorCode.permissionDenied);
    const withInstitutions = await en('P0002', admin);
    expect(withInstitutions.errorMsg).toMatch(/still has 4 institutions/);
    expect(await account('I0001')).toBeDefined();

    const made = await s.call('as.m.user.addMUser', body('shortlived'), provider);
    const token = (await s.login('shortlived', 'Abc123')).token;
    // A person alone keeps the account; deleting the person frees it.
    await s.database.db.insert(cuser).values({ cusercode: 'C-DEL-1', musercode: made.data.musercode, appid: '000000002', realname: '测试', gender: '01' });
    expect((await en(made.data.musercode)).errorMsg).toMatch(/still has 1 persons/);
    await s.database.db.update(cuser).set({ deletedat: s.clock.now() }).where(eq(cuser.cusercode, 'C-DEL-1'));
    expect((await en(made.data.musercode)).errorCode).toBe(0);
    expect(await account(made.data.musercode)).toBeUndefined();
    expect(await ping(token)).toBe(ErrorCode.identityInvalid);
    // The name is free again (the signin_name row went with the account).
    expect((await s.call('as.m.user.addMUser', body('shortlived'), provider)).errorCode).toBe(0);
    expect(await audited('as.m.user.deleteMUser')).toContainEqual({ target: made.data.musercode, insname: '学校 shortlived' });
  });

  it('updateMUser changes an institution’s region (checked) only for a caller with institution management', async () => {
    const ok = await s.call(
      'as.m.user.updateMUser',
      { musercode: 'I0002', provincecode: '440000', citycode: '440100', districtcode: '440106' },
      provider,
    );
    expect(ok.errorCode).toBe(0);
    expect(await account('I0002')).toMatchObject({ provincecode: '440000', regionname: '广东省广州市天河区' });
    const bad = await s.call(
      'as.m.user.updateMUser',
      { musercode: 'I0002', provincecode: '440000', citycode: '330100', districtcode: '330108' },
      provider,
      EN,
    );
    expect(bad.errorCode).toBe(ErrorCode.validation);
    const partial = await s.call('as.m.user.updateMUser', { musercode: 'I0002', provincecode: '330000' }, provider);
    expect(partial.errorCode).toBe(ErrorCode.validation);
    expect(await account('I0002')).toMatchObject({ provincecode: '440000', citycode: '440100' });
    const teacher = (await s.login('teacher')).token;
    const own = await s.call(
      'as.m.user.updateMUser',
      { musercode: 'I0001', provincecode: '440000', citycode: '440100', districtcode: '440106' },
      teacher,
    );
    expect(own.errorCode).toBe(ErrorCode.permissionDenied);
    expect(
      (
        await s.call(
          'as.m.user.updateMUser',
          { musercode: 'I0006', provincecode: '440000', citycode: '440100', districtcode: '440106' },
          provider,
        )
      ).errorCode,
    ).toBe(ErrorCode.notFound);
  });
});

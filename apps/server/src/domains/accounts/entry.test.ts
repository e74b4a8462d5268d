import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import yauzl from 'yauzl';
import ExcelJS from 'exceljs';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { auditLog } from '../audit/tables.js';
import { resolveEntryToken } from './entry.js';
import { muser, muserEntry } from './tables.js';
import { seal } from '../../kit/crypt/index.js';

const EN = { 'accept-language': 'en-US' };

/** Width and height from a PNG's IHDR chunk. */
function pngSize(buf: Buffer): { width: number; height: number } {
  expect(buf.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

/** The entries of a zip: name and content. */
function unzip(buf: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.readEntry();
    });
  });
}

const tokenOf = (url: string) => url.split('/r/')[1]!;

describe.each(engines())('regions, respondent entry, QR codes and exports on %s', (engine) => {
  let s: TestServer;
  let admin: string;
  let provider: string;
  let school: string;
  beforeAll(async () => {
    s = await startTestServer(engine, { config: { publicBaseUrl: 'https://xinli.example.cn' } });
    admin = (await s.login('admin')).token;
    provider = (await s.login('provider')).token;
    school = (await s.login('school')).token;
  });
  afterAll(() => s?.close());

  const download = (name: string, body: Record<string, unknown>, token: string) => s.raw(name, JSON.stringify(body), { token });
  const entry = async (musercode: string) => (await s.database.db.select().from(muserEntry).where(eq(muserEntry.musercode, musercode)))[0];
  const audited = async (action: string) =>
    (
      await s.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, action), eq(auditLog.result, 'ok')))
    ).map((a) => a.detail);

  it('answers GB/T 2260 provinces, cities and districts by parent code', async () => {
    const provinces = (await s.call('as.m.user.getDistrictList', {}, school)).data;
    expect(provinces).toHaveLength(34);
    expect(provinces).toContainEqual({ code: '330000', name: '浙江省' });
    const cities = (await s.call('as.m.user.getDistrictList', { parentcode: '330000' }, school)).data;
    expect(cities[0]).toEqual({ code: '330100', name: '杭州市' });
    expect(cities.every((c: { code: string }) => c.code.startsWith('33') && c.code.endsWith('00'))).toBe(true);
    const districts = (await s.call('as.m.user.getDistrictList', { parentcode: '330100' }, school)).data;
    expect(districts).toContainEqual({ code: '330108', name: '滨江区' });
    expect((await s.call('as.m.user.getDistrictList', { parentcode: '330108' }, school)).data).toEqual([]);
    expect((await s.call('as.m.user.getDistrictList', { parentcode: '999999' }, school)).data).toEqual([]);
    expect((await s.call('as.m.user.getDistrictList', { parentcode: '33' }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.user.getDistrictList', {})).errorCode).toBe(ErrorCode.identityInvalid);
  });

  it('sets an institution’s respondent entry; its apps and stages must be the institution’s', async () => {
    expect((await s.call('as.m.user.getMUserClient', { musercode: 'I0002' }, provider)).data).toBeNull();
    const settings = {
      musercode: 'I0002',
      title: '仁和孕产心理测评',
      logourl: 'https://cdn.example.cn/logo.png',
      welcome: '欢迎参加测评',
      consent: '我同意……',
      appids: ['000000001'],
      stagecodes: ['ST-M1', 'ST-M2'],
      showresult: 1,
      hotline: '心理援助热线 12356',
    };
    const made = await s.call('as.m.user.createMUserClient', settings, provider);
    expect(made.errorCode).toBe(0);
    expect(made.data.qrcodeurl).toMatch(/^https:\/\/xinli\.example\.cn\/r\/[A-Za-z0-9_-]{43}$/);
    const read = (await s.call('as.m.user.getMUserClient', { musercode: 'I0002' }, provider)).data;
    expect(read).toMatchObject({ ...settings, qrcodeurl: made.data.qrcodeurl });
    expect((await s.database.db.select().from(muser).where(eq(muser.musercode, 'I0002')))[0]!.qrcodeurl).toBe(made.data.qrcodeurl);
    // The user record points at it.
    expect((await s.login('hospital')).qrcodeurl).toBe(made.data.qrcodeurl);
    // The respondent channel resolves the token to the institution and its settings.
    const resolved = await resolveEntryToken(s.database.db, tokenOf(made.data.qrcodeurl));
    expect(resolved).toMatchObject({ musercode: 'I0002', insname: '仁和妇幼保健院', entry: { title: '仁和孕产心理测评', showresult: 1 } });

    // Partial update keeps the link and the other settings.
    expect((await s.call('as.m.user.updateMUserClient', { musercode: 'I0002', showresult: 0, hotline: '12356' }, provider)).errorCode).toBe(
      0,
    );
    expect(await entry('I0002')).toMatchObject({
      showresult: 0,
      hotline: '12356',
      title: '仁和孕产心理测评',
      token: tokenOf(made.data.qrcodeurl),
    });

    // Bad offers change nothing: an app the institution lacks, a stage of another app, another institution's stage.
    const before = await entry('I0002');
    const app = await s.call('as.m.user.updateMUserClient', { musercode: 'I0002', appids: ['000000002'] }, provider, EN);
    expect(app).toMatchObject({ errorCode: ErrorCode.validation, errorMsg: expect.stringMatching(/does not have these apps: 000000002/) });
    const stageOfOtherApp = await s.call(
      'as.m.user.updateMUserClient',
      { musercode: 'I0002', stagecodes: ['ST-M1'], appids: [] },
      provider,
      EN,
    );
    expect(stageOfOtherApp).toMatchObject({ errorCode: ErrorCode.validation, errorMsg: expect.stringMatching(/outside the chosen apps/) });
    expect((await s.call('as.m.user.updateMUserClient', { musercode: 'I0002', stagecodes: ['ST-S1'] }, provider)).errorCode).toBe(
      ErrorCode.notFound,
    );
    expect((await s.call('as.m.user.createMUserClient', { ...settings, logourl: 'javascript:alert(1)' }, provider)).errorCode).toBe(
      ErrorCode.validation,
    );
    expect(await entry('I0002')).toEqual(before);
    expect(await audited('as.m.user.createMUserClient')).toContainEqual({ target: 'I0002' });
  });

  it('refuses entry actions for providers, other providers’ institutions and callers without the code', async () => {
    for (const [name, extra] of [
      ['as.m.user.getMUserClient', {}],
      ['as.m.user.createMUserClient', { title: 'x' }],
      ['as.m.user.updateMUserClient', { title: 'x' }],
      ['as.m.user.resetQrCode', {}],
      ['as.m.user.downloadQrCode', {}],
    ] as const) {
      expect((await s.call(name, { musercode: 'I0006', ...extra }, provider)).errorCode, name).toBe(ErrorCode.notFound);
      expect((await s.call(name, { musercode: 'P0001', ...extra }, provider)).errorCode, name).toBe(ErrorCode.validation);
      expect((await s.call(name, { musercode: 'I0001', ...extra }, school)).errorCode, name).toBe(ErrorCode.permissionDenied);
    }
    expect(await entry('I0006')).toBeUndefined();
  });

  it('resetting the QR code makes the old link stop working at once', async () => {
    const old = (await s.call('as.m.user.createMUserClient', { musercode: 'I0003', title: '康乐养老院心理关爱' }, provider)).data.qrcodeurl;
    expect(await resolveEntryToken(s.database.db, tokenOf(old))).not.toBeNull();
    const reset = await s.call('as.m.user.resetQrCode', { musercode: 'I0003' }, provider);
    expect(reset.errorCode).toBe(0);
    expect(reset.data.qrcodeurl).not.toBe(old);
    expect(await resolveEntryToken(s.database.db, tokenOf(old))).toBeNull();
    expect(await resolveEntryToken(s.database.db, tokenOf(reset.data.qrcodeurl))).toMatchObject({ musercode: 'I0003' });
    expect((await s.login('eldercare')).qrcodeurl).toBe(reset.data.qrcodeurl);
    // The settings stay with the new link.
    expect(await entry('I0003')).toMatchObject({ title: '康乐养老院心理关爱' });
    expect(await audited('as.m.user.resetQrCode')).toContainEqual({ target: 'I0003' });
    // A disabled institution's link opens nothing; enabled again, it does.
    await s.call('as.m.user.enableMuser', { musercode: 'I0003', enabled: 0 }, provider);
    expect(await resolveEntryToken(s.database.db, tokenOf(reset.data.qrcodeurl))).toBeNull();
    await s.call('as.m.user.enableMuser', { musercode: 'I0003', enabled: 1 }, provider);
    expect(await resolveEntryToken(s.database.db, tokenOf(reset.data.qrcodeurl))).not.toBeNull();
    expect(await resolveEntryToken(s.database.db, 'not-a-token')).toBeNull();
  });

  it('draws the QR code PNG at 400×400 and 200×200 (SPEC §9)', async () => {
    const large = await download('as.m.user.downloadQrCode', { musercode: 'I0001' }, provider);
    expect(large.headers['content-type']).toBe('image/png');
    expect(pngSize(large.rawPayload)).toEqual({ width: 400, height: 400 });
    const small = await download('as.m.user.downloadQrCode', { musercode: 'I0001', size: 200 }, provider);
    expect(pngSize(small.rawPayload)).toEqual({ width: 200, height: 200 });
    expect((await download('as.m.user.downloadQrCode', { musercode: 'I0001', size: 300 }, provider)).json().errorCode).toBe(
      ErrorCode.validation,
    );
    // Drawn for an institution that had no entry yet: it now has one, and its record links to it.
    expect((await entry('I0001'))!.token).toHaveLength(43);
  });

  it('exports the filtered list as .xlsx with masked phones (audited)', async () => {
    await s.database.db
      .update(muser)
      .set({ phonenumber: seal('13912345678'), insname: '=HYPERLINK("x")' })
      .where(eq(muser.musercode, 'I0003'));
    const res = await download('as.m.user.exportToFile', { kind: 'institution' }, provider);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/\.xlsx/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    const rows = sheet.getSheetValues().slice(2) as unknown[][];
    expect(rows.map((r) => r[1]).sort()).toEqual(['I0001', 'I0002', 'I0003']);
    const i3 = rows.find((r) => r[1] === 'I0003')!;
    expect(i3[4]).toBe(`'=HYPERLINK("x")`);
    expect(i3[6]).toBe('139****5678');
    expect(sheet.getRow(1).getCell(1).value).toBe('账号编码');

    const filtered = await download('as.m.user.exportToFile', { kind: 'institution', citycode: '330200' }, provider);
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(filtered.rawPayload as unknown as ArrayBuffer);
    expect(wb2.worksheets[0]!.rowCount).toBe(2);
    expect(await audited('as.m.user.exportToFile')).toContainEqual({ filters: { kind: 'institution' } });
    expect((await download('as.m.user.exportToFile', {}, school)).json().errorCode).toBe(ErrorCode.permissionDenied);
    expect((await download('as.m.user.exportToFile', { parentcode: 'P0002' }, provider)).json().errorCode).toBe(ErrorCode.notFound);
  });

  it('exports the QR codes of chosen institutions as a zip of PNGs named by insname (audited)', async () => {
    const res = await download('as.m.user.exportToZipFile', { musercodes: ['I0001', 'I0002'] }, provider);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const files = await unzip(res.rawPayload);
    expect([...files.keys()].sort()).toEqual(['仁和妇幼保健院.png', '滨江第一中学.png']);
    for (const png of files.values()) expect(pngSize(png)).toEqual({ width: 400, height: 400 });
    const [zipAudit] = (await audited('as.m.user.exportToZipFile')) as { targets: string[] }[];
    expect(zipAudit!.targets.sort()).toEqual(['I0001', 'I0002']);

    // The super account across providers; a name that is no file name is made one.
    await s.database.db.update(muser).set({ insname: '天河/实验:小学' }).where(eq(muser.musercode, 'I0006'));
    const all = await unzip((await download('as.m.user.exportToZipFile', { musercodes: ['I0006', 'I0001'] }, admin)).rawPayload);
    expect([...all.keys()].sort()).toEqual(['天河_实验_小学.png', '滨江第一中学.png']);

    expect((await download('as.m.user.exportToZipFile', { musercodes: ['I0001', 'I0006'] }, provider)).json().errorCode).toBe(
      ErrorCode.notFound,
    );
    expect((await download('as.m.user.exportToZipFile', { musercodes: ['P0001'] }, provider)).json().errorCode).toBe(ErrorCode.validation);
    expect((await download('as.m.user.exportToZipFile', { musercodes: [] }, provider)).json().errorCode).toBe(ErrorCode.validation);
    expect((await download('as.m.user.exportToZipFile', { musercodes: ['I0001'] }, school)).json().errorCode).toBe(
      ErrorCode.permissionDenied,
    );
  });

  it('streams an export longer than one batch without losing or repeating a row', async () => {
    const many = Array.from({ length: 1234 }, (_, i) => ({
      musercode: `BULK${String(i).padStart(5, '0')}`,
      username: `bulk${i}`,
      pwdhash: 'no-login',
      musertype: '001',
      insname: `批量学校 ${i}`,
      parentcode: 'P0002',
    }));
    for (let i = 0; i < many.length; i += 300) await s.database.db.insert(muser).values(many.slice(i, i + 300));
    const res = await download('as.m.user.exportToFile', { kind: 'institution', insname: '批量学校' }, admin);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const codes = (wb.worksheets[0]!.getSheetValues().slice(2) as unknown[][]).map((r) => r[1] as string);
    expect(codes).toHaveLength(1234);
    expect(new Set(codes).size).toBe(1234);
    expect([...codes].sort()).toEqual(many.map((m) => m.musercode));
  });
});

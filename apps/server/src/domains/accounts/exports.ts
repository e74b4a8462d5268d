import { PassThrough } from 'node:stream';
import { asc, desc, inArray } from 'drizzle-orm';
import yazl from 'yazl';
import { Enabled, enumLabel, MUserType, type Lang, type MUserRow } from '@xinli/contract';
import type { HandlerMap } from '../../http/handlers.js';
import { invalid } from '../../http/errors.js';
import { todayIn } from '../../kit/index.js';
import { accountInScope } from './owner.js';
import { streamXlsx } from '../../kit/xlsx.js';
import { ensureEntry, entryLink, isInstitution, qrPng } from './entry.js';
import { listWhere, withParents } from './institutions.js';
import { muser } from './tables.js';

/** Rows read per round trip while the workbook streams out. */
const BATCH = 500;

const columns = (lang: Lang) => {
  const zh = lang === 'zh-CN';
  return [
    { header: zh ? '账号编码' : 'Account code', key: 'musercode', width: 16 },
    { header: zh ? '登录账号' : 'Sign-in name', key: 'username', width: 18 },
    { header: zh ? '类型' : 'Type', key: 'musertype', width: 14 },
    { header: zh ? '名称' : 'Name', key: 'insname', width: 28 },
    { header: zh ? '联系人' : 'Contact', key: 'realname', width: 14 },
    { header: zh ? '联系电话' : 'Phone', key: 'phonenumber', width: 16 },
    { header: zh ? '地区' : 'Region', key: 'regionname', width: 28 },
    { header: zh ? '分类' : 'Category', key: 'category', width: 28 },
    { header: zh ? '所属服务商' : 'Provider', key: 'parentname', width: 24 },
    { header: zh ? '状态' : 'Status', key: 'enabled', width: 10 },
    { header: zh ? '创建时间' : 'Created', key: 'createdat', width: 22 },
  ];
};

/** One account as the sheet's cells, in the columns' order (the kit escapes formula-like cells). */
function sheetRow(r: MUserRow, lang: Lang): unknown[] {
  const row: Record<string, unknown> = {
    musercode: r.musercode,
    username: r.username,
    musertype: enumLabel(MUserType, r.musertype, lang),
    insname: r.insname,
    realname: r.realname,
    phonenumber: r.phonenumber,
    regionname: r.regionname,
    category: [r.categorycode0, r.categorycode1, r.categorycode2, r.categorycode3, r.categorycode4, r.categorycode5]
      .filter(Boolean)
      .join(' / '),
    parentname: r.parentname,
    enabled: enumLabel(Enabled, r.enabled, lang),
    createdat: r.createdat,
  };
  return columns(lang).map((c) => row[c.key]);
}

/** A file name part without path separators or characters archive tools refuse. */
const safeName = (s: string) => s.replace(/[\\/:*?"<>|\p{Cc}]/gu, '_').trim() || '_';

export const exportHandlers = {
  /**
   * Streams the filtered list: the file is answered at once and filled batch by batch as the
   * client reads it (waiting while the socket is full), so no export is held whole in memory.
   */
  'as.m.user.exportToFile': async (filters, ctx) => {
    const where = listWhere(ctx, filters);
    const lang = ctx.lang;
    const cols = columns(lang);
    const body = streamXlsx(
      lang === 'zh-CN' ? '机构列表' : 'Accounts',
      cols.map((c) => c.header),
      async (add) => {
        for (let offset = 0; ; offset += BATCH) {
          const batch = await ctx.db
            .select()
            .from(muser)
            .where(where)
            .orderBy(desc(muser.createdat), asc(muser.musercode))
            .limit(BATCH)
            .offset(offset);
          await add((await withParents(ctx, batch, true)).map((r) => sheetRow(r, lang)));
          if (batch.length < BATCH) break;
        }
      },
      cols.map((c) => c.width),
    );
    await ctx.audit({ result: 'ok', detail: { filters } });
    return { filename: `${lang === 'zh-CN' ? '机构列表' : 'accounts'}-${todayIn(ctx.now())}.xlsx`, body };
  },

  /** One 400×400 PNG per institution, named by its name (a repeated name gets its code appended). */
  'as.m.user.exportToZipFile': async ({ musercodes }, ctx) => {
    const codes = [...new Set(musercodes)];
    for (const code of codes) {
      const account = await accountInScope(ctx, ctx.db, code);
      if (!isInstitution(account.musertype)) {
        invalid({ zh: `${account.insname} 是服务商账号，没有二维码`, en: `${account.insname} is a provider account and has no QR code` });
      }
    }
    const accounts = await ctx.db
      .select({ musercode: muser.musercode, insname: muser.insname })
      .from(muser)
      .where(inArray(muser.musercode, codes))
      .orderBy(asc(muser.insname), asc(muser.musercode));
    const zip = new yazl.ZipFile();
    const used = new Set<string>();
    const base = ctx.config.publicBaseUrl;
    const now = ctx.now();
    for (const a of accounts) {
      const entry = await ensureEntry(ctx.db, base, a, now);
      let name = `${safeName(a.insname)}.png`;
      if (used.has(name)) name = `${safeName(a.insname)}-${a.musercode}.png`;
      used.add(name);
      zip.addBuffer(await qrPng(entryLink(base, entry.token), 400), name, { mtime: now });
    }
    zip.end();
    await ctx.audit({ result: 'ok', detail: { targets: accounts.map((a) => a.musercode) } });
    const body = new PassThrough();
    zip.outputStream.pipe(body);
    return {
      filename: `${ctx.lang === 'zh-CN' ? '机构二维码' : 'qrcodes'}-${todayIn(ctx.now())}.zip`,
      contentType: 'application/zip',
      body,
    };
  },
} satisfies HandlerMap;

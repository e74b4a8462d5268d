/**
 * exportCuserList: the filtered person list as .xlsx, streamed. Rows are read a page at a time
 * and written through exceljs's streaming writer, so a list of 50,000 persons never sits in
 * memory. Phone and ID are masked as in the list; cells starting with = + - @ are escaped.
 */
import { openArchive } from './identity.js';
import type { Lang } from '@xinli/contract';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { maskIdCard, maskPhone, offsetOf } from '../../kit/index.js';
import { streamXlsx, XLSX_TYPE, type AddRows } from '../../kit/xlsx.js';
import { accountNames } from '../accounts/index.js';
import { archiveFormOf } from '../scales/index.js';
import { archiveColumns, archiveDisplay } from './archive.js';
import { personOrder, personRow, personWhere, revealsIdentity, type PersonFilters } from './list.js';
import { cuser } from './tables.js';

const PAGE = 1000;

const heads = (lang: Lang) =>
  lang === 'en-US'
    ? ['Name', 'Gender', 'Birth date', 'Phone', 'ID number', 'Institution', 'App', 'Source', 'Created']
    : ['姓名', '性别', '出生日期', '手机号', '身份证号', '机构', '应用', '来源', '创建时间'];
const genderText = (g: string, lang: Lang) => (g === '01' ? (lang === 'en-US' ? 'Male' : '男') : lang === 'en-US' ? 'Female' : '女');
const sourceText: Record<string, [string, string]> = {
  console: ['后台登记', 'Console'],
  import: ['Excel 导入', 'Excel import'],
  qrcode: ['扫码注册', 'QR code'],
};

async function archiveColumnsOf(ctx: Ctx, filters: PersonFilters) {
  const form = filters.appid ? await archiveFormOf(ctx.db, ctx.me.musercode, filters.appid) : null;
  return { form, columns: form ? archiveColumns(form.definition) : [] };
}

async function writeRows(
  ctx: Ctx,
  filters: PersonFilters,
  { form, columns }: Awaited<ReturnType<typeof archiveColumnsOf>>,
  add: AddRows,
  reveal: boolean,
) {
  const where = personWhere(ctx, filters);
  for (let page = 1; ; page++) {
    const rows = await ctx.db
      .select()
      .from(cuser)
      .where(where)
      .orderBy(...personOrder)
      .limit(PAGE)
      .offset(offsetOf({ page, pageSize: PAGE }));
    const names = await accountNames(
      ctx.db,
      rows.map((r) => r.musercode),
    );
    const out: unknown[][] = [];
    for (const r of rows) {
      const p = personRow(r, names.get(r.musercode) ?? '', ctx.lang, reveal);
      const display = form ? archiveDisplay(form.definition, openArchive(r.archive), ctx.lang) : {};
      const src = sourceText[p.source] ?? [p.source, p.source];
      out.push([
        p.realname,
        genderText(p.gender, ctx.lang),
        p.birthdate,
        p.phonenumber,
        p.idcard,
        p.insname,
        p.appname,
        ctx.lang === 'en-US' ? src[1] : src[0],
        p.createdat,
        ...columns.map((c) => display[c.key] ?? ''),
      ]);
    }
    await add(out);
    if (rows.length < PAGE) return;
  }
}

/**
 * The filters as the audit entry keeps them: a whole phone or ID number searched for is sealed in
 * its table, so the log holds it masked, as the list shows it (encryption.test.ts scans the log too).
 */
const auditedFilters = ({ phonenumber, idcard, ...rest }: PersonFilters) => ({
  ...rest,
  ...(phonenumber ? { phonenumber: maskPhone(phonenumber) } : {}),
  ...(idcard ? { idcard: maskIdCard(idcard) } : {}),
});

export const exportHandlers = {
  'as.m.cuser.exportCuserList': async (filters, ctx) => {
    // Scope is checked now (a named institution out of scope is "not found" before any byte).
    personWhere(ctx, filters);
    const reveal = revealsIdentity(ctx);
    await ctx.audit({ result: 'ok', detail: { filters: auditedFilters(filters), revealed: reveal } });
    const archive = await archiveColumnsOf(ctx, filters);
    const header = [...heads(ctx.lang), ...archive.columns.map((c) => (ctx.lang === 'en-US' && c.title.en ? c.title.en : c.title.zh))];
    const out = streamXlsx(ctx.lang === 'en-US' ? 'Persons' : '测评对象', header, (add) => writeRows(ctx, filters, archive, add, reveal));
    return { filename: ctx.lang === 'en-US' ? 'persons.xlsx' : '测评对象.xlsx', contentType: XLSX_TYPE, body: out };
  },
} satisfies HandlerMap;

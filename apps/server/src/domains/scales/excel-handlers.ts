import type { HandlerMap } from '../../http/handlers.js';
import { fail } from '../../http/errors.js';
import { UploadRefused } from '../../kit/upload/reader.js';
import { base64Bytes } from '../../kit/upload/base64.js';
import { checkDefinition, findForm } from './access.js';
import { buildTemplate, parseTemplate } from './excel.js';
import { canonical, loadStored, reviseForm } from './store.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function readTemplate(file: Buffer) {
  try {
    return await parseTemplate(file);
  } catch (e) {
    if (e instanceof UploadRefused) throw e; // too big, a zip bomb, too many rows...: says why
    return fail('badImportFile', { zh: '文件不是有效的 Excel（.xlsx）文件', en: 'The file is not a valid Excel (.xlsx) file' });
  }
}

export const excelHandlers = {
  'as.m.assess.forms.exportFormExcelTemplate': async ({ formcode }, ctx) => {
    if (!formcode) return { filename: '量表题目模板.xlsx', contentType: XLSX, body: await buildTemplate() };
    const head = await findForm(ctx, ctx.db, formcode, false);
    const { def } = await loadStored(ctx.db, formcode, head.version);
    await ctx.audit({ result: 'ok', detail: { formcode, version: head.version } });
    return { filename: `${def.formname.zh}-题目.xlsx`, contentType: XLSX, body: await buildTemplate(def) };
  },

  'as.m.assess.forms.importFormExcel': async (input, ctx) => {
    const { formcode, filename } = input;
    const head = await findForm(ctx, ctx.db, formcode, true);
    const { questions, errors } = await readTemplate(await base64Bytes(input, 'content'));
    if (errors.length) {
      const shown = errors.slice(0, 10);
      const more = errors.length > shown.length ? { zh: `等 ${errors.length} 处错误`, en: ` and ${errors.length - shown.length} more` } : { zh: '', en: '' };
      fail('badImportFile', { zh: `导入失败，未导入任何题目：${shown.map((e) => e.message.zh).join('；')}${more.zh}`, en: `Nothing imported: ${shown.map((e) => e.message.en).join('; ')}${more.en}` });
    }
    const stored = await loadStored(ctx.db, formcode, head.version);
    // The template has no column for numeric ranges: a fill-in keeps the range its number had.
    const merged = questions.map((q) => {
      const old = stored.def.questions.find((o) => o.no === q.no);
      return old?.range && old.type === 0 && q.type === 0 ? { ...q, range: old.range } : q;
    });
    const def = checkDefinition({ ...stored.def, questions: merged }, 'badImportFile');
    let version = head.version;
    if (canonical(def) !== canonical(stored.def)) version = await ctx.db.transaction((tx) => reviseForm(tx, head, def, stored.ids, ctx.now()));
    await ctx.audit({ result: 'ok', detail: { formcode, filename, version, questions: merged.length } });
    return { formcode, version, questioncount: merged.length };
  },
} satisfies HandlerMap;

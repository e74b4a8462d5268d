import type { HandlerMap } from '../../../http/handlers.js';
import { accountNames } from '../../accounts/index.js';
import { loadCurrentDefinitions, readableFormBriefs } from '../../scales/index.js';
import { documentModel } from '../document/data.js';
import { renderDocument } from '../document/layout.js';
import { sampleModel } from './sample.js';
import { checkBody, deleteTemplate, insertTemplate, listTemplates, setPlanTemplate, templateDetail, templateOwner, updateTemplate } from './store.js';
import { applyVersion } from './use.js';

/** The custom report's templates (issue 31 §4): designing, versions, previews and the plans using them. */
export const reportTemplateHandlers = {
  'as.m.reportTemplate.getPage': (input, ctx) => listTemplates(ctx, input),

  'as.m.reportTemplate.get': ({ templateid, version }, ctx) => templateDetail(ctx, templateid, version),

  'as.m.reportTemplate.insert': async ({ musercode, ...body }, ctx) => {
    const out = await insertTemplate(ctx, templateOwner(ctx, musercode), body);
    await ctx.audit({ result: 'ok', detail: { templateid: out.templateid, name: body.name } });
    return out;
  },

  'as.m.reportTemplate.update': async ({ templateid, ...body }, ctx) => {
    const out = await updateTemplate(ctx, templateid, body);
    await ctx.audit({ result: 'ok', detail: { templateid, version: out.version } });
    return out;
  },

  'as.m.reportTemplate.delete': async ({ templateid }, ctx) => {
    await deleteTemplate(ctx, templateid);
    await ctx.audit({ result: 'ok', detail: { templateid } });
    return null;
  },

  /** The body as it would print a report in scope (the read audited) or the sample; nothing stored. */
  'as.m.reportTemplate.preview': async ({ body, reportid, musercode }, ctx) => {
    await checkBody(ctx, templateOwner(ctx, musercode), body);
    let model;
    if (reportid) {
      model = await documentModel(ctx, reportid, { template: false });
      await ctx.audit({ result: 'ok', detail: { reportid, cusercode: model.report.cusercode, target: model.report.musercode } });
    } else {
      const def = (await loadCurrentDefinitions(ctx.db, body.formcodes.slice(0, 1))).get(body.formcodes[0]!)!;
      const insname = (await accountNames(ctx.db, [ctx.me.musercode])).get(ctx.me.musercode) ?? '';
      model = sampleModel(def, ctx.lang, insname, ctx.now());
    }
    const version = { versionid: 'PREVIEW', name: body.name, version: 0, body };
    return { html: renderDocument(await applyVersion(ctx.db, ctx.config, model, version)) };
  },

  'as.m.reportTemplate.getFormOptions': async (_input, ctx) => {
    const briefs = await readableFormBriefs(ctx.db, ctx.me, ctx.lang);
    const defs = await loadCurrentDefinitions(ctx.db, briefs.map((b) => b.formcode));
    const local = (t: { zh: string; en: string }) => (ctx.lang === 'en-US' && t.en ? t.en : t.zh);
    return briefs.map((b) => ({
      formcode: b.formcode,
      formname: b.formname,
      indicators: (defs.get(b.formcode)?.indicators ?? []).map((i) => ({ code: i.code, name: local(i.name), levels: [...new Set(i.bands.map((x) => x.level))].sort() })),
    }));
  },

  'as.m.reportTemplate.setPlanTemplate': async ({ plancode, templateid }, ctx) => {
    await setPlanTemplate(ctx, plancode, templateid);
    await ctx.audit({ result: 'ok', detail: { plancode, templateid } });
    return null;
  },
} satisfies HandlerMap;

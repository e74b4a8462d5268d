import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import { PopulationApp, type TemplateBody, type TemplateDetail, type TemplateRow } from '@xinli/contract';
import type { DbOrTx } from '../../../db/database.js';
import type { Ctx } from '../../../http/context.js';
import { conflict, invalid, notFound } from '../../../http/errors.js';
import { contains, iso, newId, paged } from '../../../kit/index.js';
import { assertInScope, scopeWhere } from '../../auth/index.js';
import { noSuchFile, setFileUses, usableFiles } from '../../files/index.js';
import { findPlan, planNames } from '../../plans/index.js';
import { assertFormsReadable } from '../../scales/index.js';
import { planReportTemplate, reportTemplate, reportTemplateUse, reportTemplateVersion } from './tables.js';

/**
 * The custom report's templates (issue 31 §4): versions are only ever inserted; saving a template
 * inserts its next version under a lock on the template's row, so two saves never take one number.
 */

export type TemplateRecord = typeof reportTemplate.$inferSelect;
const FILE_USE = 'reporttemplate';

const noSuchTemplate = (): never => notFound({ zh: '报告模板不存在', en: 'No such report template' });
const saver = (ctx: Ctx) => ctx.me.userid ?? ctx.me.musercode;

/** A template in the caller's scope (another institution's is "not found"). */
export async function findTemplate(ctx: Ctx, db: DbOrTx, templateid: string, lock = false): Promise<TemplateRecord> {
  const q = db
    .select()
    .from(reportTemplate)
    .where(and(eq(reportTemplate.templateid, templateid), scopeWhere(reportTemplate.musercode, ctx.me)));
  const [row] = lock ? await q.for('update') : await q;
  return row ?? noSuchTemplate();
}

/** The forms must be readable by the caller, the logo an image the owner uploaded. */
export async function checkBody(ctx: Ctx, owner: string, body: TemplateBody) {
  await assertFormsReadable(ctx.db, ctx.me, body.formcodes);
  if (!body.logofileid) return;
  const { missing, bad } = await usableFiles(ctx.db, owner, [{ fileid: body.logofileid, use: 'image' }]);
  if (missing) noSuchFile();
  if (bad) invalid({ zh: '标志须为本机构已上传的图片', en: 'The logo must be a picture uploaded by the institution' });
}

export async function listTemplates(ctx: Ctx, input: { page: number; pageSize: number; name?: string }): Promise<{ total: number; rows: TemplateRow[] }> {
  const query = ctx.db
    .select()
    .from(reportTemplate)
    .where(and(scopeWhere(reportTemplate.musercode, ctx.me), contains(reportTemplate.name, input.name)))
    .$dynamic();
  const { total, rows } = await paged(ctx.db, query, [desc(reportTemplate.updatedat), asc(reportTemplate.templateid)], input);
  if (!rows.length) return { total, rows: [] };
  const ids = rows.map((r) => r.templateid);
  const versions = await ctx.db
    .select({ templateid: reportTemplateVersion.templateid, version: reportTemplateVersion.version, body: reportTemplateVersion.body })
    .from(reportTemplateVersion)
    .where(inArray(reportTemplateVersion.templateid, ids));
  const links = await ctx.db.select().from(planReportTemplate).where(inArray(planReportTemplate.templateid, ids));
  const names = await planNames(ctx.db, links.map((l) => l.plancode));
  return {
    total,
    rows: rows.map((r) => ({
      templateid: r.templateid,
      musercode: r.musercode,
      name: r.name,
      version: r.version,
      formcodes: versions.find((v) => v.templateid === r.templateid && v.version === r.version)?.body.formcodes ?? [],
      plans: links.filter((l) => l.templateid === r.templateid).map((l) => names.get(l.plancode) ?? l.plancode),
      updatedat: iso(r.updatedat),
    })),
  };
}

export async function templateDetail(ctx: Ctx, templateid: string, version?: number): Promise<TemplateDetail> {
  const t = await findTemplate(ctx, ctx.db, templateid);
  const versions = await ctx.db
    .select()
    .from(reportTemplateVersion)
    .where(eq(reportTemplateVersion.templateid, templateid))
    .orderBy(desc(reportTemplateVersion.version));
  const wanted = versions.find((v) => v.version === (version ?? t.version));
  if (!wanted) return notFound({ zh: `该模板没有第 ${version} 版`, en: `This template has no version ${version}` });
  const uses = await ctx.db
    .select({ versionid: reportTemplateUse.versionid, n: count() })
    .from(reportTemplateUse)
    .where(inArray(reportTemplateUse.versionid, versions.map((v) => v.versionid)))
    .groupBy(reportTemplateUse.versionid);
  const links = await ctx.db.select({ plancode: planReportTemplate.plancode }).from(planReportTemplate).where(eq(planReportTemplate.templateid, templateid));
  return {
    templateid,
    musercode: t.musercode,
    version: wanted.version,
    body: wanted.body,
    versions: versions.map((v) => ({
      version: v.version,
      createdby: v.createdby,
      createdat: iso(v.createdat),
      reports: Number(uses.find((u) => u.versionid === v.versionid)?.n ?? 0),
    })),
    plancodes: links.map((l) => l.plancode).sort(),
  };
}

async function insertVersion(tx: DbOrTx, ctx: Ctx, templateid: string, version: number, body: TemplateBody) {
  await tx.insert(reportTemplateVersion).values({ versionid: newId('RV'), templateid, version, body, createdby: saver(ctx), createdat: ctx.now() });
  // Every version's logo stays in use: an old version still prints the logo it had.
  const bodies = await tx.select({ body: reportTemplateVersion.body }).from(reportTemplateVersion).where(eq(reportTemplateVersion.templateid, templateid));
  await setFileUses(tx, FILE_USE, templateid, bodies.flatMap((b) => (b.body.logofileid ? [b.body.logofileid] : [])));
}

/** The account a template is for: the caller's own, or an institution in its scope (a provider designing for it). */
export function templateOwner(ctx: Ctx, musercode: string | undefined): string {
  const owner = musercode ?? ctx.me.musercode;
  assertInScope(ctx.me, owner);
  return owner;
}

export async function insertTemplate(ctx: Ctx, owner: string, body: TemplateBody) {
  await checkBody(ctx, owner, body);
  const templateid = newId('RT');
  await ctx.db.transaction(async (tx) => {
    await tx.insert(reportTemplate).values({ templateid, musercode: owner, name: body.name, version: 1, createdat: ctx.now(), updatedat: ctx.now() });
    await insertVersion(tx, ctx, templateid, 1, body);
  });
  return { templateid, version: 1 };
}

export async function updateTemplate(ctx: Ctx, templateid: string, body: TemplateBody) {
  const found = await findTemplate(ctx, ctx.db, templateid);
  await checkBody(ctx, found.musercode, body);
  const version = await ctx.db.transaction(async (tx) => {
    const t = await findTemplate(ctx, tx, templateid, true);
    const next = t.version + 1;
    await insertVersion(tx, ctx, templateid, next, body);
    await tx.update(reportTemplate).set({ name: body.name, version: next, updatedat: ctx.now() }).where(eq(reportTemplate.templateid, templateid));
    return next;
  });
  return { version };
}

export async function deleteTemplate(ctx: Ctx, templateid: string) {
  await ctx.db.transaction(async (tx) => {
    await findTemplate(ctx, tx, templateid, true);
    const [used] = await tx
      .select({ n: count() })
      .from(reportTemplateUse)
      .innerJoin(reportTemplateVersion, eq(reportTemplateVersion.versionid, reportTemplateUse.versionid))
      .where(eq(reportTemplateVersion.templateid, templateid));
    if (Number(used?.n ?? 0) > 0)
      conflict({
        zh: `已有 ${used!.n} 份报告使用此模板生成，不能删除（这些报告须保持原样）`,
        en: `${used!.n} report(s) were rendered with this template; it cannot be deleted (they keep it)`,
      });
    await setFileUses(tx, FILE_USE, templateid, []);
    await tx.delete(reportTemplate).where(eq(reportTemplate.templateid, templateid));
  });
}

/** A plan of the custom-report app, in the caller's scope, picks a template in the caller's scope, or none. */
export async function setPlanTemplate(ctx: Ctx, plancode: string, templateid: string | null) {
  const p = await findPlan(ctx, ctx.db, plancode, true);
  if (templateid) await findTemplate(ctx, ctx.db, templateid);
  if (p.appid !== PopulationApp.customReport)
    invalid({ zh: '只有“定制报告”应用的计划可以选用报告模板', en: 'Only a plan of the custom report app can use a report template' });
  if (!templateid) {
    await ctx.db.delete(planReportTemplate).where(eq(planReportTemplate.plancode, plancode));
    return;
  }
  await ctx.db.insert(planReportTemplate).values({ plancode, templateid }).onConflictDoUpdate({ target: planReportTemplate.plancode, set: { templateid } });
}

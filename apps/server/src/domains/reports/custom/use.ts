import { and, eq } from 'drizzle-orm';
import { PopulationApp, type ActionOutput, type LocalText, type ReportDetail, type TemplateBody } from '@xinli/contract';
import type { Config } from '../../../config.js';
import type { DbOrTx } from '../../../db/database.js';
import { fileUrls, servedFiles, storageOf } from '../../files/index.js';
import type { DocumentModel } from '../document/model.js';
import { planReportTemplate, reportTemplate, reportTemplateUse, reportTemplateVersion } from './tables.js';

/**
 * Which template version renders a report, and what it changes (issue 31 §4). A report of app
 * 000000005 whose plan picked a template covering its form keeps the template's version current
 * when the report is stored (a report stored before that was recorded keeps the version current
 * when it is first shown, to staff, in print or to its respondent), whatever is saved to the
 * template later. The print, the console's report page and the respondent's result follow it.
 */

type RespondentResult = ActionOutput<'as.c.exam.getResult'>;

export interface ReportRef {
  reportid: string;
  appid: string;
  plancode: string;
  formcode: string;
}

export interface UsedVersion {
  versionid: string;
  name: string;
  version: number;
  body: TemplateBody;
}

async function storedVersion(db: DbOrTx, reportid: string): Promise<UsedVersion | null> {
  const [row] = await db
    .select({ versionid: reportTemplateVersion.versionid, version: reportTemplateVersion.version, body: reportTemplateVersion.body })
    .from(reportTemplateUse)
    .innerJoin(reportTemplateVersion, eq(reportTemplateVersion.versionid, reportTemplateUse.versionid))
    .where(eq(reportTemplateUse.assessid, reportid));
  return row ? { ...row, name: row.body.name } : null;
}

/**
 * Records the version a report keeps: its plan's template's current version, when the template
 * covers the report's form. Called in the transaction that stores the report, so a report prints
 * with the version of the day it was scored however late it is first printed (issue 31 §4), and
 * at the first showing of a report stored before versions were kept at scoring. Answers whether
 * a version may now be kept (the report's own, or one another reading recorded first).
 */
export async function keepTemplateVersion(db: DbOrTx, r: ReportRef, now: Date): Promise<boolean> {
  if (r.appid !== PopulationApp.customReport || !r.plancode) return false;
  const [current] = await db
    .select({ versionid: reportTemplateVersion.versionid, body: reportTemplateVersion.body })
    .from(planReportTemplate)
    .innerJoin(reportTemplate, eq(reportTemplate.templateid, planReportTemplate.templateid))
    .innerJoin(
      reportTemplateVersion,
      and(eq(reportTemplateVersion.templateid, reportTemplate.templateid), eq(reportTemplateVersion.version, reportTemplate.version)),
    )
    .where(eq(planReportTemplate.plancode, r.plancode));
  if (!current || !current.body.formcodes.includes(r.formcode)) return false;
  // Two first readings at once: one row wins, and both render with the row that won.
  await db.insert(reportTemplateUse).values({ assessid: r.reportid, versionid: current.versionid, createdat: now }).onConflictDoNothing();
  return true;
}

/** The version rendering a report: the one it keeps, else (kept from now on) its plan's template's current one; null: the standard report. */
export async function versionForReport(db: DbOrTx, r: ReportRef, now: Date): Promise<UsedVersion | null> {
  const kept = await storedVersion(db, r.reportid);
  if (kept) return kept;
  return (await keepTemplateVersion(db, r, now)) ? storedVersion(db, r.reportid) : null;
}

/** The logo as a data URL (the document loads nothing from the network), or null when it is gone. */
async function logoData(db: DbOrTx, config: Config, fileid: string | null): Promise<string | null> {
  if (!fileid) return null;
  const file = (await servedFiles(db, [fileid])).get(fileid);
  const got = file && (await storageOf(config).get(file.key));
  if (!file || !got || got.size > 2 * 1024 * 1024) return null;
  const chunks: Buffer[] = [];
  for await (const c of got.body) chunks.push(Buffer.from(c as Buffer));
  return `data:${file.contenttype};base64,${Buffer.concat(chunks).toString('base64')}`;
}

/** The template's own text of an indicator band, or undefined. */
const bandText = (body: TemplateBody, indicator: string, level: number | null) =>
  level === null ? undefined : body.bandtexts.find((b) => b.indicator === indicator && b.level === level)?.text;

/** The indicators with the template's own text of their band as their interpretation (the form's where it has none). */
function withBandTexts<I extends { code: string; level: number | null; interpretation: LocalText | null }>(body: TemplateBody, indicators: I[]): I[] {
  return indicators.map((i) => {
    const text = bandText(body, i.code, i.level);
    return text ? { ...i, interpretation: { zh: text, en: text } } : i;
  });
}

/** What the version decides of the layout, for the print (DocumentLayout) and the page (ReportLayout) alike. */
const layoutOf = (v: UsedVersion) => ({ name: v.name, version: v.version, title: v.body.title, sections: v.body.sections, signoff: v.body.signoff });

/** The model as the version lays it out: its header, its band texts and its sections. */
export async function applyVersion(db: DbOrTx, config: Config, m: DocumentModel, v: UsedVersion): Promise<DocumentModel> {
  const b = v.body;
  return {
    ...m,
    institution: { name: b.headername || m.institution.name, logo: (await logoData(db, config, b.logofileid)) ?? m.institution.logo },
    report: { ...m.report, indicators: withBandTexts(b, m.report.indicators) },
    layout: { versionid: v.versionid, ...layoutOf(v) },
  };
}

/**
 * The report as its version lays it out on the console's page, decided here as for the print:
 * the band texts as interpretations, and the layout (header, sections in order, sign-off); the
 * standard report (layout null) without a template.
 */
export async function reportWithLayout(db: DbOrTx, r: ReportDetail, now: Date): Promise<ReportDetail> {
  const v = await versionForReport(db, r, now);
  if (!v) return { ...r, layout: null };
  const logo = (await fileUrls(db, [v.body.logofileid])).get(v.body.logofileid ?? '') ?? null;
  return {
    ...r,
    indicators: withBandTexts(v.body, r.indicators),
    layout: { ...layoutOf(v), headername: v.body.headername || r.insname, logo },
  };
}

/** The respondent's result as the report's version allows: only the parts it lists; the crisis text always. */
export async function respondentView(db: DbOrTx, r: ReportRef & { codes: string[] }, now: Date, result: RespondentResult): Promise<RespondentResult> {
  const v = await versionForReport(db, r, now);
  if (!v || !result.shown) return result;
  const allow = new Set(v.body.respondent);
  return {
    ...result,
    mentalstate: allow.has('summary') ? result.mentalstate : null,
    indicators: !allow.has('indicators')
      ? []
      : result.indicators.map((i, k) => {
          const text = bandText(v.body, r.codes[k] ?? '', i.level);
          return {
            ...i,
            interpretation: allow.has('bandtext') ? (text ? { zh: text, en: text } : i.interpretation) : null,
            advice: allow.has('advice') ? i.advice : null,
          };
        }),
  };
}

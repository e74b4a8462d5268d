import { and, eq } from 'drizzle-orm';
import { PopulationApp, type ActionOutput, type TemplateBody } from '@xinli/contract';
import type { Config } from '../../../config.js';
import type { DbOrTx } from '../../../db/database.js';
import { servedFiles, storageOf } from '../../files/index.js';
import type { DocumentModel } from '../document/model.js';
import { planReportTemplate, reportTemplate, reportTemplateUse, reportTemplateVersion } from './tables.js';

/**
 * Which template version renders a report, and what it changes (issue 31 §4). A report of app
 * 000000005 whose plan picked a template covering its form is rendered by the template's current
 * version the first time it is shown (to staff, in print, or to its respondent); that version is
 * stored with the report and kept, whatever is saved to the template later.
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

/** The version rendering a report: the one it keeps, else (stored now) its plan's template's current one; null: the standard report. */
export async function versionForReport(db: DbOrTx, r: ReportRef, now: Date): Promise<UsedVersion | null> {
  const kept = await storedVersion(db, r.reportid);
  if (kept || r.appid !== PopulationApp.customReport || !r.plancode) return kept;
  const [current] = await db
    .select({ versionid: reportTemplateVersion.versionid, version: reportTemplateVersion.version, body: reportTemplateVersion.body })
    .from(planReportTemplate)
    .innerJoin(reportTemplate, eq(reportTemplate.templateid, planReportTemplate.templateid))
    .innerJoin(
      reportTemplateVersion,
      and(eq(reportTemplateVersion.templateid, reportTemplate.templateid), eq(reportTemplateVersion.version, reportTemplate.version)),
    )
    .where(eq(planReportTemplate.plancode, r.plancode));
  if (!current || !current.body.formcodes.includes(r.formcode)) return null;
  // Two first readings at once: one row wins, and both render with the row that won.
  await db.insert(reportTemplateUse).values({ assessid: r.reportid, versionid: current.versionid, createdat: now }).onConflictDoNothing();
  return storedVersion(db, r.reportid);
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

/** The model as the version lays it out: its header, its band texts and its sections. */
export async function applyVersion(db: DbOrTx, config: Config, m: DocumentModel, v: UsedVersion): Promise<DocumentModel> {
  const b = v.body;
  const indicators = m.report.indicators.map((i) => {
    const text = bandText(b, i.code, i.level);
    return text ? { ...i, interpretation: { zh: text, en: text } } : i;
  });
  return {
    ...m,
    institution: { name: b.headername || m.institution.name, logo: (await logoData(db, config, b.logofileid)) ?? m.institution.logo },
    report: { ...m.report, indicators },
    layout: { versionid: v.versionid, name: v.name, version: v.version, title: b.title, sections: b.sections, signoff: b.signoff },
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

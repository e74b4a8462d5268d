import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { form, quotaOption } from '../../domains/scales/tables.js';
import { loadDefinition } from '../../domains/scales/store.js';
import { PNG_BASE64 } from '../images.js';

/**
 * Bodies the schema walker cannot invent (an import file must hold a real scale). The sweeps try
 * these first, with id fields then set as each check needs. Add an entry when the tenant sweep
 * reports that every generated body was refused before the ids were checked.
 */
export const examples: Record<string, (db: Db) => Promise<Record<string, unknown>>> = {
  // The report filter's quota rows need an indicator of the form: random codes never name one.
  ...Object.fromEntries(
    ['as.m.exam.exportCUserExamData', 'as.m.exam.exportCUserDetailData', 'as.m.exam.exportCUserStatData', 'as.m.exam.exportReportPdfZip'].map((name) => [
      name,
      async (db: Db) => ({ quotas: [{ formcode: 'set-by-the-sweep', quotacode: await sweepQuotacode(db), levels: [0, 1, 2, 3, 4] }] }),
    ]),
  ),
  'as.m.cuser.showOrHiddenReport': async () => ({ hidden: 1 }),
  // A real (1×1) PNG: random base64 is never a picture.
  'as.m.access.updateToOSS': async () => ({ use: 'image', filename: 'sweep.png', data: PNG_BASE64 }),
  // A class needs school, grade and class; a task a window whose start is before its end.
  'as.m.assess.insertAssessTeam': async () => ({ kind: 'class', school: 'sweep school', year: '2026', term: '1', grade: '7', classname: 'sweep', deptname: '' }),
  'as.m.assess.insertAssessTask': async () => ({ taskname: 'sweep', startat: '2026-11-21T00:00:00Z', endat: '2026-11-22T00:00:00Z' }),
  'as.m.assess.updateAssessTask': async () => ({ taskname: 'sweep' }),
  // A window of QR-link entries starts before it ends and spans at most 7 days.
  'as.m.user.previewUndoLinkEntries': async () => ({ startat: '2026-11-21T00:00:00Z', endat: '2026-11-21T01:00:00Z' }),
  'as.m.user.undoLinkEntries': async () => ({ startat: '2026-11-21T00:00:00Z', endat: '2026-11-21T01:00:00Z', count: 0 }),
  'as.m.assess.insertAssessTeamCUser': async () => ({ studentno: 'SWNEW', realname: 'sweep', gender: '01' }),
  // Region codes must exist and nest (GB/T 2260): random digits never do.
  'as.m.user.addMUser': async () => ({
    username: 'swexample',
    pwd: '0123456789ABCDEF0123456789ABCDEF',
    musertype: '001',
    insname: 'sweep example',
    provincecode: '330000',
    citycode: '330100',
    districtcode: '330108',
  }),
  // A report template's sections and parts are each listed once: random lists repeat them.
  ...Object.fromEntries(['as.m.reportTemplate.insert', 'as.m.reportTemplate.update'].map((name) => [name, async () => templateExample()])),
  'as.m.reportTemplate.preview': async () => ({ body: templateExample() }),
  'as.m.assess.forms.importFormJson': async (db) => {
    const [source] = await db
      .select({ formcode: form.formcode, version: form.version })
      .from(form)
      .where(isNull(form.musercode))
      .orderBy(asc(form.formcode))
      .limit(1);
    if (!source) throw new Error('the import example copies a built-in scale; the library has none');
    const definition = await loadDefinition(db, source.formcode, source.version);
    return { filename: 'scale.json', content: Buffer.from(JSON.stringify({ ...definition, formcode: 'SWIMPORT' })).toString('base64') };
  },
};

/** A valid report template body; the sweep sets its form and logo ids. */
const templateExample = () => ({
  name: 'sweep template example',
  title: '',
  headername: '',
  logofileid: null,
  formcodes: ['set-by-the-sweep'],
  sections: ['summary', 'indicators', 'signoff'],
  respondent: ['summary'],
  bandtexts: [],
  signoff: '',
});

/** The indicator code of the scale the form fixture copies (quotacode fields name it). */
export async function sweepQuotacode(db: Db): Promise<string> {
  const [row] = await db
    .select({ quotacode: quotaOption.quotacode })
    .from(form)
    .innerJoin(quotaOption, and(eq(quotaOption.formcode, form.formcode), eq(quotaOption.version, form.version)))
    .where(isNull(form.musercode))
    .orderBy(asc(form.formcode))
    .limit(1);
  return row?.quotacode ?? '';
}

import { and, asc, count, desc, eq, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { FormDefinition, Lang } from '@xinli/contract';
import type { HandlerMap } from '../../http/handlers.js';
import type { Ctx } from '../../http/context.js';
import { conflict, fail, invalid } from '../../http/errors.js';
import { accountNames, insnameOf, ownerAccount } from '../accounts/index.js';
import { assertChosenConventionsKept, conventionChoices } from './conventions.js';
import { assertInScope } from '../auth/index.js';
import { containsPattern, iso, newId, pageThrough, statementsByShape, totalColumn } from '../../kit/index.js';
import { base64Bytes } from '../../kit/upload/base64.js';
import { resultCount, resultCountsByVersion } from '../assessments/index.js';
import { checkDefinition, findForm } from './access.js';
import { scoreSheet, ScoringError } from './scoring/index.js';
import { createForm, formNameIn, formOfApp, loadStored, reviseForm } from './store.js';
import { textlessSql } from './item-text.js';
import { form, formVersion } from './tables.js';

/** Format marker of an exported scale file. */
export const FORM_FILE_FORMAT = 'xinli-scale';

function rowColumns(lang: Lang) {
  return {
    formcode: form.formcode,
    formname: formNameIn(lang),
    formtype: form.formtype,
    version: form.version,
    questioncount: form.questioncount,
    indicatorcount: form.indicatorcount,
    builtin: sql<boolean>`(${form.musercode} is null)`,
    enabled: form.enabled,
    textless: textlessSql,
    appids: form.appids,
    musercode: sql<string>`coalesce(${form.musercode}, '')`,
    licence: lang === 'en-US' ? sql<string>`coalesce(nullif(${form.licenceen}, ''), ${form.licence})` : form.licence,
    source: form.source,
    copiedfrom: sql<string>`coalesce(${form.copiedfrom}, '')`,
    createdat: form.createdat,
    updatedat: form.updatedat,
  };
}

const selectRows = (ctx: Ctx) => ctx.db.select(rowColumns(ctx.lang)).from(form);

interface RawRow {
  builtin: boolean;
  textless: boolean;
  createdat: Date;
  updatedat: Date;
}
const rowOut = <R extends RawRow>(r: R) => ({ ...r, builtin: !!r.builtin, textless: !!r.textless, createdat: iso(r.createdat), updatedat: iso(r.updatedat) });

interface ListShape {
  lang: Lang;
  scoped: boolean;
  formname: boolean;
  formtype: boolean;
  appid: boolean;
  enabled: boolean;
  builtin: number;
}

/**
 * The library list (the page with its total, and the count alone for a page past the end) as prepared
 * statements per shape of request (kit statementsByShape). The conditions are formReadable, contains
 * and formOfApp with parameters for values. A row reads the form table alone (its header mirrors the
 * definition); the owner's name rides on it.
 */
const libraryList = statementsByShape('forms_list', (db, shape: ListShape, name) => {
  const p = sql.placeholder;
  const where = and(
    shape.scoped ? or(isNull(form.musercode), sql`${form.musercode} = any(${p('scope')}::text[])`) : undefined,
    shape.formname ? or(sql`${form.formname} ilike ${p('pattern')}`, sql`${form.formnameen} ilike ${p('pattern')}`) : undefined,
    shape.formtype ? sql`${form.formtype} = ${p('formtype')}` : undefined,
    shape.appid ? formOfApp(p('appid')) : undefined,
    shape.enabled ? sql`${form.enabled} = ${p('enabled')}` : undefined,
    shape.builtin === -1 ? undefined : shape.builtin ? isNull(form.musercode) : isNotNull(form.musercode),
  );
  const matching = db.select({ n: count() }).from(form).where(where);
  return {
    count: matching.prepare(`${name}_n`),
    rows: db
      .select({ ...rowColumns(shape.lang), insname: sql<string>`coalesce(${insnameOf(form.musercode)}, '')`, total: totalColumn(matching) })
      .from(form)
      .where(where)
      .orderBy(sql`${form.musercode} is null`, desc(form.updatedat), asc(form.formcode))
      .limit(p('limit'))
      .offset(p('offset'))
      .prepare(name),
  };
});

/** Rows as the contract has them, with the owning institution's name (none for built-ins). */
async function rowsOut<R extends RawRow & { musercode: string }>(ctx: Ctx, rows: R[]) {
  const names = await accountNames(ctx.db, rows.map((r) => r.musercode).filter(Boolean));
  return rows.map((r) => ({ ...rowOut(r), insname: names.get(r.musercode) ?? '' }));
}

export async function formRowOf(ctx: Ctx, formcode: string) {
  const [r] = await rowsOut(ctx, await selectRows(ctx).where(eq(form.formcode, formcode)));
  return r!;
}

/** Creates an own form from a checked definition; answers its code and version. */
async function createOwnForm(ctx: Ctx, musercode: string | undefined, body: unknown, as: 'validation' | 'badImportFile', copiedfrom: string | null = null) {
  const owner = (await ownerAccount(ctx, ctx.db, musercode)).musercode;
  const formcode = newId('F');
  const def = checkDefinition({ ...(body as object), formcode, version: 1 }, as);
  await ctx.db.transaction((tx) => createForm(tx, formcode, owner, def, ctx.now(), new Map(), copiedfrom));
  return { formcode, version: 1 };
}

/** Parses a JSON scale file; anything unreadable is a bad import file. */
function readFormFile(bytes: Buffer): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    return fail('badImportFile', { zh: '文件不是有效的 JSON', en: 'The file is not valid JSON' });
  }
  // An exported file wraps the definition; a bare definition (e.g. written by hand) is accepted too.
  const file = parsed as { format?: unknown; definition?: unknown; questions?: unknown };
  const definition = file && typeof file === 'object' ? (file.format === FORM_FILE_FORMAT ? file.definition : Array.isArray(file.questions) ? file : null) : null;
  if (!definition || typeof definition !== 'object' || Array.isArray(definition)) {
    return fail('badImportFile', { zh: '文件不是导出的量表文件', en: 'The file is not an exported scale file' });
  }
  const { formcode: _c, version: _v, ...body } = definition as Record<string, unknown>;
  return body;
}

export const formHandlers = {
  'as.m.assess.forms.getFormPageList': async ({ formname, formtype, appid, enabled, builtin, page, pageSize }, ctx) => {
    const scope = ctx.me.scope;
    const shape = { lang: ctx.lang, scoped: scope !== 'all', formname: !!formname, formtype: !!formtype, appid: !!appid, enabled: enabled !== undefined, builtin: builtin ?? -1 };
    const values = {
      scope: scope === 'all' ? [] : scope,
      pattern: containsPattern(formname ?? ''),
      formtype: formtype ?? '',
      appid: appid ?? '',
      enabled: enabled ?? 0,
    };
    const { total, rows } = await pageThrough(libraryList(ctx.readDb, shape), values, { page, pageSize });
    return { total, rows: rows.map(rowOut) };
  },

  'as.m.assess.forms.getForm': async ({ formcode, version }, ctx) => {
    const head = await findForm(ctx, ctx.db, formcode, false);
    const versions = await ctx.db
      .select({ version: formVersion.version, createdat: formVersion.createdat })
      .from(formVersion)
      .where(eq(formVersion.formcode, formcode))
      .orderBy(asc(formVersion.version));
    const results = await resultCountsByVersion(ctx.db, formcode);
    const { def } = await loadStored(ctx.db, formcode, version ?? head.version);
    return {
      form: await formRowOf(ctx, formcode),
      definition: def,
      versions: versions.map((v) => ({ version: v.version, createdat: iso(v.createdat), resultcount: results.get(v.version) ?? 0 })),
      revision: head.revision,
    };
  },

  'as.m.assess.forms.insertForm': async ({ musercode, definition }, ctx) => {
    const out = await createOwnForm(ctx, musercode, definition, 'validation');
    await ctx.audit({ result: 'ok', detail: out });
    return out;
  },

  'as.m.assess.forms.updateForm': async ({ formcode, revision, definition }, ctx) => {
    const head = await findForm(ctx, ctx.db, formcode, true);
    const def = checkDefinition({ ...definition, formcode, version: head.version });
    const version = await ctx.db.transaction(async (tx) => {
      // Bands keep their ids by position within their indicator.
      const { def: before, ids } = await loadStored(tx, formcode, head.version);
      // Written only if the revision the editor started from is still current (checked under a row lock).
      const saved = await reviseForm(tx, { ...head, revision }, def, ids, ctx.now());
      // Still under that lock: a convention an institution has chosen stays (refused: the transaction rolls back).
      await assertChosenConventionsKept(tx, formcode, before, def);
      return saved;
    });
    await ctx.audit({ result: 'ok', detail: { formcode, from: head.version, version } });
    return { formcode, version };
  },

  'as.m.assess.forms.copyForm': async ({ formcode, musercode, formname }, ctx) => {
    const head = await findForm(ctx, ctx.db, formcode, false);
    const { def } = await loadStored(ctx.db, formcode, head.version);
    const name = formname ? { zh: formname, en: def.formname.en } : { zh: `${def.formname.zh}（副本）`.slice(0, 100), en: def.formname.en ? `${def.formname.en} (copy)`.slice(0, 100) : '' };
    const { formcode: _c, version: _v, ...body } = { ...def, formname: name } as FormDefinition;
    const out = await createOwnForm(ctx, musercode, body, 'validation', formcode);
    await ctx.audit({ result: 'ok', detail: { from: formcode, ...out } });
    return out;
  },

  'as.m.assess.forms.deleteForm': async ({ formcode }, ctx) => {
    await findForm(ctx, ctx.db, formcode, true);
    if ((await resultCount(ctx.db, formcode)) > 0) conflict({ zh: '该量表已有测评结果，不能删除，可停用', en: 'The scale has results: it cannot be deleted, disable it instead' });
    await ctx.db.delete(form).where(eq(form.formcode, formcode));
    await ctx.audit({ result: 'ok', detail: { formcode } });
    return null;
  },

  'as.m.assess.forms.enableForm': async ({ formcode, enabled }, ctx) => {
    await findForm(ctx, ctx.db, formcode, true);
    await ctx.db.update(form).set({ enabled, updatedat: ctx.now() }).where(eq(form.formcode, formcode));
    await ctx.audit({ result: 'ok', detail: { formcode, enabled } });
    return null;
  },

  'as.m.assess.forms.previewScore': async ({ formcode, answers }, ctx) => {
    const head = await findForm(ctx, ctx.db, formcode, false);
    const { def } = await loadStored(ctx.db, formcode, head.version);
    // Scored as the caller's institution scores it (its scoring convention, issue 31 §1).
    const convention = (await conventionChoices(ctx.db, ctx.me.musercode)).get(formcode);
    try {
      return scoreSheet(def, { answers }, { convention });
    } catch (e) {
      if (e instanceof ScoringError) return invalid(e.msg);
      throw e;
    }
  },

  'as.m.assess.forms.exportFormJson': async ({ formcode }, ctx) => {
    const head = await findForm(ctx, ctx.db, formcode, false);
    const { def } = await loadStored(ctx.db, formcode, head.version);
    await ctx.audit({ result: 'ok', detail: { formcode, version: head.version } });
    const file = { format: FORM_FILE_FORMAT, formatversion: 1, exportedat: iso(ctx.now()), definition: def };
    return { filename: `${def.formname.zh || formcode}-v${head.version}.json`, contentType: 'application/json; charset=utf-8', body: Buffer.from(JSON.stringify(file, null, 2)) };
  },

  'as.m.assess.forms.importFormJson': async (input, ctx) => {
    const { musercode, filename } = input;
    if (musercode) assertInScope(ctx.me, musercode);
    const body = readFormFile(await base64Bytes(input, 'content'));
    const out = await createOwnForm(ctx, musercode, body, 'badImportFile');
    await ctx.audit({ result: 'ok', detail: { filename, ...out } });
    return out;
  },
} satisfies HandlerMap;

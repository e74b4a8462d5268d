import { and, eq, isNull } from 'drizzle-orm';
import type { HandlerMap } from '../../http/handlers.js';
import { notFound } from '../../http/errors.js';
import { paged } from '../../kit/index.js';
import { ownerAccount, accountNames } from '../accounts/index.js';
import { scopeWhere } from '../auth/index.js';
import { archiveFormOf } from '../scales/index.js';
import { archiveColumns, archiveDisplay } from './archive.js';
import { exportHandlers } from './export.js';
import { importHandlers } from './import-handlers.js';
import { rightsHandlers } from './rights.js';
import { archiveAppWhere, assertArchiveApp, personListPage, personOrder, personRow, personWhere, revealsIdentity } from './list.js';
import { archiveToStore, assertNotAnonymised, createPerson, personInScope } from './persons.js';
import { reportCountOfPerson, reportsOfPerson } from '../reports/index.js';
import { identityColumns, openArchive } from './identity.js';
import { cuser } from './tables.js';

const noArchiveForm = { formcode: '', formname: '', version: 0, columns: [] };

const crudHandlers = {
  'as.m.cuser.insertCUser': async ({ musercode, appid, ...fields }, ctx) => {
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    const { cusercode } = await createPerson(ctx.db, { musercode: owner.musercode, appid, ...fields, source: 'console', now: ctx.now() });
    await ctx.audit({ result: 'ok', detail: { cusercode, target: owner.musercode, appid } });
    return { cusercode };
  },

  'as.m.cuser.updateCUser': async ({ cusercode, archive, ...fields }, ctx) => {
    const person = await personInScope(ctx, ctx.db, cusercode);
    assertNotAnonymised(person);
    const stored = archive === undefined ? {} : await archiveToStore(ctx.db, person.musercode, person.appid, archive);
    const set = {
      ...(fields.realname !== undefined ? { realname: fields.realname } : {}),
      ...(fields.gender !== undefined ? { gender: fields.gender } : {}),
      ...(fields.birthdate !== undefined ? { birthdate: fields.birthdate || null } : {}),
      ...identityColumns({ phonenumber: fields.phonenumber, idcard: fields.idcard }),
      ...stored,
      updatedat: ctx.now(),
    };
    // The row's guard too: an erasure that lands between the read and this write wins.
    const done = await ctx.db
      .update(cuser)
      .set(set)
      .where(and(eq(cuser.cusercode, cusercode), isNull(cuser.deletedat), isNull(cuser.anonymisedat)))
      .returning({ cusercode: cuser.cusercode });
    if (!done.length) assertNotAnonymised({ anonymisedat: ctx.now() });
    // The audit names the fields changed, never their values (phone and ID are personal data).
    await ctx.audit({ result: 'ok', detail: { cusercode, fields: Object.keys(set).filter((k) => k !== 'updatedat' && !k.endsWith('hash')) } });
    return null;
  },

  'as.m.cuser.deleteCUser': async ({ cusercode }, ctx) => {
    const person = await personInScope(ctx, ctx.db, cusercode);
    const reports = await reportCountOfPerson(ctx.db, cusercode);
    // Kept, marked deleted: reports and the audit trail go on naming the person.
    const by = ctx.me.userid ? `${ctx.me.musercode}/${ctx.me.userid}` : ctx.me.musercode;
    const done = await ctx.db
      .update(cuser)
      .set({ deletedat: ctx.now(), deletedby: by, updatedat: ctx.now() })
      .where(and(eq(cuser.cusercode, cusercode), isNull(cuser.deletedat), scopeWhere(cuser.musercode, ctx.me)))
      .returning({ cusercode: cuser.cusercode });
    if (!done.length) notFound();
    await ctx.audit({ result: 'ok', detail: { cusercode, target: person.musercode, appid: person.appid, realname: person.realname, reports } });
    return null;
  },

  'as.m.cuser.getCUserPageList': async ({ page, pageSize, ...filters }, ctx) => {
    const reveal = revealsIdentity(ctx);
    // A masked page may come from the replica; an unmasked one is audited, so it reads the primary.
    // Only a page showing full numbers is audited (DESIGN §6); a masked page reveals nothing.
    const { total, rows } = await personListPage(ctx, filters, { page, pageSize }, reveal ? ctx.db : ctx.readDb);
    if (reveal && rows.length) await ctx.audit({ result: 'ok', detail: { revealed: rows.map((r) => r.cusercode) } });
    return { total, rows: rows.map((r) => personRow(r, r.insname ?? '', ctx.lang, reveal)) };
  },

  'as.m.assess.getCUser': async ({ cusercode }, ctx) => {
    const person = await personInScope(ctx, ctx.db, cusercode);
    const names = await accountNames(ctx.db, [person.musercode]);
    const reveal = revealsIdentity(ctx);
    if (reveal) await ctx.audit({ result: 'ok', detail: { revealed: [cusercode] } });
    return { ...personRow(person, names.get(person.musercode) ?? '', ctx.lang, reveal), archive: openArchive(person.archive), reportcount: await reportCountOfPerson(ctx.db, cusercode) };
  },
} satisfies HandlerMap;

const archiveHandlers = {
  'as.m.cuser.getCUserArchiveHeadList': async ({ appid }, ctx) => {
    assertArchiveApp(ctx, appid);
    const form = await archiveFormOf(ctx.db, ctx.me.musercode, appid);
    if (!form) return noArchiveForm;
    const name = ctx.lang === 'en-US' && form.definition.formname.en ? form.definition.formname.en : form.definition.formname.zh;
    return { formcode: form.formcode, formname: name, version: form.version, columns: archiveColumns(form.definition) };
  },

  'as.m.cuser.getCUserArchivePageList': async ({ page, pageSize, ...filters }, ctx) => {
    const query = ctx.db.select().from(cuser).where(and(personWhere(ctx, filters), archiveAppWhere(ctx, filters.appid))).$dynamic();
    const { total, rows } = await paged(ctx.db, query, personOrder, { page, pageSize });
    const names = await accountNames(ctx.db, rows.map((r) => r.musercode));
    const reveal = revealsIdentity(ctx);
    if (reveal && rows.length) await ctx.audit({ result: 'ok', detail: { revealed: rows.map((r) => r.cusercode) } });
    // Each row's answers are shown with the form they were given against (institutions differ).
    const forms = new Map<string, Awaited<ReturnType<typeof archiveFormOf>>>();
    const out = [];
    for (const r of rows) {
      const key = `${r.musercode}/${r.appid}`;
      if (!forms.has(key)) forms.set(key, await archiveFormOf(ctx.db, r.musercode, r.appid));
      out.push({ ...personRow(r, names.get(r.musercode) ?? '', ctx.lang, reveal), archive: archiveDisplay(forms.get(key)?.definition ?? null, openArchive(r.archive), ctx.lang) });
    }
    return { total, rows: out };
  },

  'as.m.cuser.getCUserArchive': async ({ cusercode }, ctx) => {
    const person = await personInScope(ctx, ctx.db, cusercode);
    assertArchiveApp(ctx, person.appid);
    const names = await accountNames(ctx.db, [person.musercode]);
    const form = await archiveFormOf(ctx.db, person.musercode, person.appid);
    const reveal = revealsIdentity(ctx);
    await ctx.audit({ result: 'ok', detail: { cusercode, ...(reveal ? { revealed: [cusercode] } : {}) } });
    return {
      person: personRow(person, names.get(person.musercode) ?? '', ctx.lang, reveal),
      columns: form ? archiveColumns(form.definition) : [],
      archive: openArchive(person.archive),
      display: archiveDisplay(form?.definition ?? null, openArchive(person.archive), ctx.lang),
      reports: await reportsOfPerson(ctx.db, cusercode, ctx.lang),
    };
  },

  'as.m.cuser.deleteCUserArchive': async ({ cusercode }, ctx) => {
    const person = await personInScope(ctx, ctx.db, cusercode);
    assertArchiveApp(ctx, person.appid);
    assertNotAnonymised(person);
    await ctx.db.update(cuser).set({ archive: [], updatedat: ctx.now() }).where(eq(cuser.cusercode, cusercode));
    // The answers removed go into the audit trail, so clearing an archive can be traced and undone.
    await ctx.audit({ result: 'ok', detail: { cusercode, target: person.musercode, archive: person.archive, archiveformcode: person.archiveformcode } });
    return null;
  },
} satisfies HandlerMap;

export const personHandlers = { ...crudHandlers, ...archiveHandlers, ...importHandlers, ...exportHandlers, ...rightsHandlers } satisfies HandlerMap;

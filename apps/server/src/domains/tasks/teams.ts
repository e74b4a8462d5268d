/** Teams, their rosters and the school/year/term/grade lookups (menu 00042). */
import { and, asc, count, desc, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { compareGrades, gradeNames, PopulationApp } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import { contains, iso, newId, paged } from '../../kit/index.js';
import { ownedBy, ownerAccount, accountNames } from '../accounts/index.js';
import { assertAppOfInstitution, createPerson, livingPerson, personBriefs, personInScope, personNameLike } from '../persons/index.js';
import { openTaskCounts, teamInScope, teamName } from './store.js';
import { team, teamMember } from './tables.js';

const isUniqueViolation = (e: unknown) => (e as { code?: string; cause?: { code?: string } })?.code === '23505' || (e as { cause?: { code?: string } })?.cause?.code === '23505';

/** Living roster members of the given teams, counted per team. */
async function memberCounts(db: DbOrTx, teamids: string[]): Promise<Map<string, number>> {
  if (!teamids.length) return new Map();
  const rows = await db
    .select({ teamid: teamMember.teamid, n: count() })
    .from(teamMember)
    .where(and(inArray(teamMember.teamid, teamids), livingPerson(teamMember.cusercode)))
    .groupBy(teamMember.teamid);
  return new Map(rows.map((r) => [r.teamid, Number(r.n)]));
}

/** Distinct non-empty values of one team column in scope, under the given filters. */
async function distinctValues(ctx: Ctx, column: AnyPgColumn, musercode: string | undefined, filters: SQL[], order: 'asc' | 'desc') {
  const rows = await ctx.db
    .selectDistinct({ v: column })
    .from(team)
    .where(and(ownedBy(ctx, team.musercode, musercode), isNull(team.deletedat), ne(column, ''), ...filters))
    .orderBy(order === 'asc' ? asc(column) : desc(column));
  return rows.map((r) => String(r.v));
}

/** A grade's place in school (the contract's grade order) for ORDER BY; unknown grades after the known ones. */
const gradeOrder = sql`case ${team.grade} ${sql.join(
  gradeNames().map(([name, rank]) => sql`when ${name} then ${rank}`),
  sql` `,
)} else 99 end`;

const eqIf = (column: AnyPgColumn, value: string | undefined) => (value ? [eq(column, value)] : []);

export const teamHandlers = {
  'as.m.assess.getAssessTeamPageList': async ({ musercode, kind, school, year, term, grade, teamname, page, pageSize }, ctx) => {
    const where = and(
      ownedBy(ctx, team.musercode, musercode),
      isNull(team.deletedat),
      ...eqIf(team.kind, kind),
      ...eqIf(team.school, school),
      ...eqIf(team.year, year),
      ...eqIf(team.term, term),
      ...eqIf(team.grade, grade),
      contains([team.school, team.grade, team.classname, team.deptname], teamname),
    );
    const query = ctx.db.select().from(team).where(where).$dynamic();
    const order = [asc(team.school), desc(team.year), asc(team.term), asc(gradeOrder), asc(team.grade), asc(team.classname), asc(team.deptname), asc(team.teamid)];
    const { total, rows } = await paged(ctx.db, query, order, { page, pageSize });
    const ids = rows.map((r) => r.teamid);
    const [names, members, open] = await Promise.all([
      accountNames(ctx.db, rows.map((r) => r.musercode)),
      memberCounts(ctx.db, ids),
      openTaskCounts(ctx.db, ids, ctx.now()),
    ]);
    return {
      total,
      rows: rows.map((r) => ({
        teamid: r.teamid,
        musercode: r.musercode,
        insname: names.get(r.musercode) ?? '',
        kind: r.kind as 'class' | 'dept',
        school: r.school,
        year: r.year,
        term: r.term,
        grade: r.grade,
        classname: r.classname,
        deptname: r.deptname,
        appid: r.appid,
        teamname: teamName(r),
        membercount: members.get(r.teamid) ?? 0,
        opentaskcount: open.get(r.teamid) ?? 0,
        createdat: iso(r.createdat),
      })),
    };
  },

  'as.m.assess.insertAssessTeam': async ({ musercode, kind, ...fields }, ctx) => {
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    const appid = kind === 'class' ? PopulationApp.students : PopulationApp.workingAdults;
    await assertAppOfInstitution(ctx.db, owner.musercode, appid);
    // A class has no department and a department no school fields: what does not apply is dropped.
    const values =
      kind === 'class' ? { ...fields, deptname: '' } : { school: '', year: '', term: '', grade: '', classname: '', deptname: fields.deptname };
    const teamid = newId('TM');
    try {
      await ctx.db.insert(team).values({ teamid, musercode: owner.musercode, kind, appid, ...values, createdat: ctx.now() });
    } catch (e) {
      if (isUniqueViolation(e)) conflict({ zh: '该团体已存在', en: 'This team already exists' });
      throw e;
    }
    await ctx.audit({ result: 'ok', detail: { teamid, target: owner.musercode } });
    return { teamid };
  },

  'as.m.assess.deleteAssessTeam': async ({ teamid }, ctx) => {
    await ctx.db.transaction(async (tx) => {
      const t = await teamInScope(ctx, tx, teamid);
      // Locked so a task cannot take the team while it is being deleted.
      await tx.select({ teamid: team.teamid }).from(team).where(eq(team.teamid, t.teamid)).for('update');
      const open = (await openTaskCounts(tx, [teamid], ctx.now())).get(teamid) ?? 0;
      if (open)
        conflict({
          zh: `团体「${teamName(t)}」有 ${open} 个未结束的测评任务，不能删除；请先删除任务或等任务结束`,
          en: `The team “${teamName(t)}” has ${open} task(s) not yet ended; delete them or wait until they end`,
        });
      await tx.update(team).set({ deletedat: ctx.now() }).where(eq(team.teamid, teamid));
    });
    await ctx.audit({ result: 'ok', detail: { teamid } });
    return null;
  },

  'as.m.assess.getAssessTeamRoster': async ({ teamid, realname, studentno, page, pageSize }, ctx) => {
    await teamInScope(ctx, ctx.db, teamid);
    const where = and(
      eq(teamMember.teamid, teamid),
      livingPerson(teamMember.cusercode),
      realname ? personNameLike(teamMember.cusercode, realname) : undefined,
      contains(teamMember.studentno, studentno),
    );
    const query = ctx.db.select().from(teamMember).where(where).$dynamic();
    const { total, rows } = await paged(ctx.db, query, [asc(teamMember.studentno), asc(teamMember.cusercode)], { page, pageSize });
    const people = await personBriefs(ctx.db, rows.map((r) => r.cusercode), ctx.lang);
    return {
      total,
      rows: rows.map((r) => ({
        cusercode: r.cusercode,
        studentno: r.studentno,
        realname: people.get(r.cusercode)?.realname ?? '',
        gender: people.get(r.cusercode)?.gender ?? '',
        joinedat: iso(r.joinedat),
      })),
    };
  },

  'as.m.assess.insertAssessTeamCUser': async ({ teamid, studentno, cusercode, realname, gender }, ctx) => {
    const t = await teamInScope(ctx, ctx.db, teamid);
    if (!cusercode && !(realname && gender))
      invalid({ zh: '请选择已有测评对象，或填写姓名和性别', en: 'Choose an existing person, or give a name and gender' });
    const added = await ctx.db.transaction(async (tx) => {
      let code = cusercode;
      if (code) {
        const p = await personInScope(ctx, tx, code);
        if (p.musercode !== t.musercode || p.appid !== t.appid)
          invalid({ zh: '该测评对象不属于此团体的机构或人群', en: 'This person is not of the team’s institution or population' });
      } else {
        code = (await createPerson(tx, { musercode: t.musercode, appid: t.appid, realname: realname!, gender: gender!, source: 'console', now: ctx.now() })).cusercode;
      }
      const [row] = await tx
        .insert(teamMember)
        .values({ teamid, cusercode: code, studentno, joinedat: ctx.now() })
        .onConflictDoNothing()
        .returning({ cusercode: teamMember.cusercode });
      if (!row) conflict({ zh: `学号 ${studentno} 或该测评对象已在名单中`, en: `Number ${studentno} or this person is already on the roster` });
      return code;
    });
    await ctx.audit({ result: 'ok', detail: { teamid, cusercode: added, studentno } });
    return { cusercode: added };
  },

  'as.m.assess.batchDeleteAssessTeamCUser': async ({ teamid, cusercodes }, ctx) => {
    const t = await teamInScope(ctx, ctx.db, teamid);
    const people = await personBriefs(ctx.db, cusercodes);
    if ([...new Set(cusercodes)].some((c) => people.get(c)?.musercode !== t.musercode)) notFound({ zh: '测评对象不存在', en: 'No such person' });
    const removed = await ctx.db
      .delete(teamMember)
      .where(and(eq(teamMember.teamid, teamid), inArray(teamMember.cusercode, [...new Set(cusercodes)])))
      .returning({ cusercode: teamMember.cusercode });
    await ctx.audit({ result: 'ok', detail: { teamid, removed: removed.length } });
    return { removed: removed.length };
  },

  'as.m.assess.getSchoolList': ({ musercode }, ctx) => distinctValues(ctx, team.school, musercode, [], 'asc'),
  'as.m.assess.getYearList': ({ musercode, school }, ctx) => distinctValues(ctx, team.year, musercode, eqIf(team.school, school), 'desc'),
  'as.m.assess.getTermList': ({ musercode, school, year }, ctx) =>
    distinctValues(ctx, team.term, musercode, [...eqIf(team.school, school), ...eqIf(team.year, year)], 'asc'),
  'as.m.assess.getGradeList': async ({ musercode, school, year, term }, ctx) =>
    (await distinctValues(ctx, team.grade, musercode, [...eqIf(team.school, school), ...eqIf(team.year, year), ...eqIf(team.term, term)], 'asc')).sort(compareGrades),
} satisfies HandlerMap;

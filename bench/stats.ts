/**
 * Statistics at scale (issue 15 items 4 and 5): `npm run bench:stats`.
 *
 * PostgreSQL only (DATABASE_URL). When the URL names the machine's `postgres` database, the data
 * lives in a dedicated database `xinli_bench_stats` on that server (BENCH_DATABASE to name
 * another): created and filled by bench/stats-data.ts with BENCH_REPORTS reports (default
 * 3,000,000), and kept, so a rerun at the same size starts at once (another size drops and
 * refills it). Any other database name is used as it is (it must be empty or hold this size).
 *
 * The compiled server (apps/server/dist/main.js, built first; BENCH_SERVE_BUILD=0 skips the build)
 * runs as `npm run serve` runs it, one process (SERVER_PROCESSES), on loopback, background jobs off
 * (JOB_POLL_MS=0 unless set). The bench signs in as the generated education bureau and calls
 * every statistics action of the contract
 * (packages/contract/src/actions/statistics.ts, except the export) and getInterfereRecord, each
 * with `{}` (the bureau's whole scope), with the last 30 days, and with one institution (the
 * school of the bureau's region with the most reports; the institution picker, which takes no
 * dates or institution, with `{}` only): warm-up, then BENCH_N calls (default 20)
 * one after another. Each case is also answered by raw SQL over the raw rows (assessment, cuser,
 * assess_code, task_person, team, assessment_indicator, joined to muser for the scope: plain
 * count and GROUP BY, no aggregate table), BENCH_RAW_N times (default 5) on its own connection to
 * the same database. Printed per case: p50 and p95 of the action over HTTP and of the raw SQL,
 * and their ratio (action p95 / raw p95). Every answer is compared with the raw SQL's: a mismatch
 * is printed with both values and makes the bench exit 1. The last line names the worst case.
 * BENCH_SERVER=0 runs the raw SQL side alone (no server; every case then counts as a mismatch).
 * Bounded: a fixed number of calls; loopback only; the server is stopped at the end.
 */
import './data-key.js';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import pg from 'pg';
import { STATS_INSTITUTION_CAP, statisticsActions } from '../packages/contract/src/actions/statistics.js';
import { md5Upper } from '../apps/server/src/domains/auth/passwords.js';
import { admin, withDatabase } from '../apps/server/src/db/admin.js';
import { BUREAU_MUSERCODE, BUREAU_USERNAME, generateStatsData } from './stats-data.js';

const REPORTS = Number(process.env.BENCH_REPORTS ?? 3_000_000);
const N = Number(process.env.BENCH_N ?? 20);
const RAW_N = Number(process.env.BENCH_RAW_N ?? 5);
const PASSWORD = process.env.BENCH_PASSWORD ?? 'demo123';
const root = path.resolve(import.meta.dirname, '..');

const baseUrl = process.env.DATABASE_URL ?? '';
if (!baseUrl.startsWith('postgres')) {
  console.error('bench:stats needs PostgreSQL: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:stats');
  process.exit(2);
}
const named = decodeURIComponent(new URL(baseUrl).pathname.slice(1)) || 'postgres';
const dedicated = named === 'postgres';
const dbName = dedicated ? (process.env.BENCH_DATABASE ?? 'xinli_bench_stats') : named;
if (!/^[a-z_][a-z0-9_]*$/.test(dbName)) throw new Error(`bad database name ${dbName}`);
const url = withDatabase(baseUrl, dbName);

// ---------- the database: reuse, or (re)create and fill ----------
async function requestedSize(): Promise<number | null | 'absent'> {
  const c = new pg.Client({ connectionString: url });
  try {
    await c.connect();
  } catch (e) {
    if ((e as { code?: string }).code === '3D000') return 'absent';
    throw e;
  }
  try {
    const t = await c.query(`select to_regclass('bench_stats_meta')::text as t`);
    if (!t.rows[0]?.t) return null;
    return Number((await c.query('select requested from bench_stats_meta')).rows[0]?.requested ?? null);
  } finally {
    await c.end();
  }
}

// ---------- the bench ----------
interface Envelope {
  errorCode: number;
  errorMsg: string;
  data: unknown;
}
type Filter = Record<string, string | number>;

/** Data reports answered in the caller's ordinary scope (a bureau's holds no institution): also run as a provider. */
const ORDINARY_SCOPE = new Set(['as.m.hospital.statistic.getPlanAuthorizeDetails', 'as.m.hospital.statistic.getPlanAuthorizeCount', 'as.m.hospital.statistic.getInterfereRecord']);
const PROVIDER = { username: 'bench_provider1', musercode: 'BSP1' };

async function run(base: string | null, db: pg.Client, reports: number): Promise<boolean> {
  const one = async <T>(text: string) => (await db.query(text)).rows[0] as T;
  const post = async (name: string, body: unknown, token?: string): Promise<Envelope> => {
    if (base === null) return { errorCode: -1, errorMsg: 'BENCH_SERVER=0', data: null };
    const res = await fetch(`${base}/api/${name}/1.0.0/action`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Envelope;
  };
  const signIn = async (username: string) => {
    const login = await post('as.m.user.login', { username, pwd: md5Upper(PASSWORD) });
    if (login.errorCode !== 0 && base !== null) throw new Error(`sign-in as ${username}: ${login.errorCode} ${login.errorMsg}`);
    return (login.data as { token?: string } | null)?.token;
  };
  /** The school of a scope with the most reports. */
  const topSchool = async () => {
    const r = await one<{ musercode: string; insname: string } | undefined>(`
      select m.musercode, m.insname from muser m join (${scopeSql()}) s on s.musercode = m.musercode
      where m.musertype = '001' order by (select count(*) from assessment a where a.musercode = m.musercode) desc, m.musercode limit 1`);
    if (!r) throw new Error(`no school in the scope of ${caller.musercode}`);
    return r;
  };

  // The filters: the whole scope, the last 30 China calendar days, one institution.
  const today = chinaDate(new Date());
  const last30 = { startdate: addDays(today, -29), enddate: today };
  caller = { musercode: BUREAU_MUSERCODE, stats: true };
  const school = await topSchool();
  caller = { musercode: PROVIDER.musercode, stats: false };
  const provSchool = await topSchool();
  const callers = [
    { who: 'bureau', token: await signIn(BUREAU_USERNAME), musercode: BUREAU_MUSERCODE, school },
    { who: 'provider', token: await signIn(PROVIDER.username), musercode: PROVIDER.musercode, school: provSchool },
  ];
  console.log(
    `as bureau ${BUREAU_USERNAME} (one institution: ${school.musercode} ${school.insname}); the data reports in the ordinary scope also as ${PROVIDER.username} (${provSchool.musercode} ${provSchool.insname}); N ${N} (raw SQL ${RAW_N}) after warm-up`,
  );

  const names = [...Object.keys(statisticsActions).filter((n) => n !== 'as.m.hospital.statistic.exportPlanAuthorizeDetails'), 'as.m.hospital.statistic.getInterfereRecord'];
  const results: { name: string; filter: string; p50: number; p95: number; raw50: number; raw95: number }[] = [];
  let mismatches = 0;
  console.log(`${'action'.padEnd(52)} ${'as'.padEnd(8)} ${'filter'.padEnd(24)} ${'p50'.padStart(7)} ${'p95'.padStart(7)}  ${'raw p50'.padStart(7)} ${'raw p95'.padStart(7)}  ratio  same`);
  for (const name of names) {
    const raw = RAW[name];
    if (!raw) throw new Error(`no raw SQL for ${name}`);
    const ordinary = ORDINARY_SCOPE.has(name);
    for (const c of callers) {
      if (c.who === 'provider' && !ordinary) continue;
      caller = { musercode: c.musercode, stats: !ordinary };
      const filters: [string, Filter][] = [
        ['{}', {}],
        [`${last30.startdate}..${last30.enddate}`, last30],
        [`musercode ${c.school.musercode}`, { musercode: c.school.musercode }],
      ];
      for (const [label, f] of filters) {
        // The authorisation actions take no dates; the bureau's ordinary scope has no school to name.
        if (name.includes('PlanAuthorize') && f.startdate) continue;
        // The institution picker takes region and name filters only (no dates, no institution).
        if (name.endsWith('getStatsInstitutionList') && (f.startdate || f.musercode)) continue;
        if (ordinary && c.who === 'bureau' && f.musercode) continue;
        const input = name.endsWith('getInterfereRecord') || name.endsWith('getPlanAuthorizeDetails') ? { ...f, page: 1, pageSize: 20 } : f;
        // warm-up: twice (the server's statements get prepared and cached), then N timed calls one after another
        let answer = await post(name, input, c.token);
        await post(name, input, c.token);
        const times: number[] = [];
        for (let i = 0; i < (base === null ? 0 : N); i++) {
          const t = performance.now();
          answer = await post(name, input, c.token);
          times.push(performance.now() - t);
          if (answer.errorCode !== 0) break;
        }
        const text = raw(f);
        let expected: unknown = null;
        const rawTimes: number[] = [];
        await db.query(text);
        for (let i = 0; i < RAW_N; i++) {
          const t = performance.now();
          expected = shape(name, (await db.query(text)).rows);
          rawTimes.push(performance.now() - t);
        }
        const got = answer.errorCode === 0 ? normalise(name, answer.data) : { errorCode: answer.errorCode, errorMsg: answer.errorMsg };
        const same = JSON.stringify(got) === JSON.stringify(normalise(name, expected));
        const row = { name, filter: `${c.who} ${label}`, p50: pct(times, 50), p95: pct(times, 95), raw50: pct(rawTimes, 50), raw95: pct(rawTimes, 95) };
        results.push(row);
        console.log(
          `${name.padEnd(52)} ${c.who.padEnd(8)} ${label.padEnd(24)} ${ms(row.p50)} ${ms(row.p95)}  ${ms(row.raw50)} ${ms(row.raw95)}  ${(row.p95 / row.raw95).toFixed(2).padStart(5)}  ${same ? 'yes' : 'NO'}`,
        );
        if (!same) {
          mismatches++;
          console.log(
            `!!! MISMATCH ${name} as ${c.who} ${label}\n    action:  ${JSON.stringify(got).slice(0, 1500)}\n    raw SQL: ${JSON.stringify(normalise(name, expected)).slice(0, 1500)}`,
          );
        }
      }
    }
  }
  const over = results.filter((r) => r.p95 > 200);
  console.log(over.length ? `over the 200 ms p95 goal: ${over.map((r) => `${r.name} (${r.filter}) ${r.p95.toFixed(0)} ms`).join('; ')}` : 'every action p95 ≤ 200 ms');
  if (mismatches) console.log(`!!! ${mismatches} answer(s) differ from the raw SQL`);
  const worst = results.reduce((a, b) => (b.p95 > a.p95 ? b : a));
  console.log(`worst: ${worst.name} (${worst.filter})`);
  console.log(
    `statistics: p95 ${worst.p95.toFixed(0)} ms over ${reports} reports (raw SQL p95 ${worst.raw95.toFixed(0)} ms, ratio ${(worst.p95 / worst.raw95).toFixed(2)})`,
  );
  return mismatches > 0;
}

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
}
function ms(v: number) {
  return v.toFixed(1).padStart(7);
}
function chinaDate(d: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
}
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const k = y * 12 + (m - 1) + n;
  return `${Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, '0')}`;
}

// ---------- raw SQL: the same figures over the raw rows ----------
const lit = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** Who calls: the account, and whether its statistics scope (a JYJ bureau: plus the schools of its region) or its ordinary scope applies. */
interface Caller {
  musercode: string;
  stats: boolean;
}
let caller: Caller = { musercode: '', stats: true };

/**
 * The accounts a caller's figures cover (accounts/statistics-scope.ts): the account itself and
 * the institutions it provides for (its ordinary scope) and, for statistics of a JYJ bureau, every
 * school (type 001) of its own region (its district, else city, else province).
 */
function scopeSql(): string {
  const own = `m.musercode = ${lit(caller.musercode)} or m.parentcode = ${lit(caller.musercode)}`;
  if (!caller.stats) return `select m.musercode from muser m where ${own}`;
  return `select m.musercode from muser m, muser b
    where b.musercode = ${lit(caller.musercode)} and (${own} or (b.loginasmarker = 'JYJ' and m.musertype = '001' and case
      when b.districtcode <> '' then m.districtcode = b.districtcode
      when b.citycode <> '' then m.citycode = b.citycode
      when b.provincecode <> '' then m.provincecode = b.provincecode else false end))`;
}

/** Accounts in scope under the institution and region filters. */
function institutions(f: Filter): string {
  return `select s.musercode from (${scopeSql()}) s join muser m on m.musercode = s.musercode where true
    ${f.musercode ? `and m.musercode = ${lit(String(f.musercode))}` : ''}
    ${f.provincecode ? `and m.provincecode = ${lit(String(f.provincecode))}` : ''}
    ${f.citycode ? `and m.citycode = ${lit(String(f.citycode))}` : ''}
    ${f.districtcode ? `and m.districtcode = ${lit(String(f.districtcode))}` : ''}`;
}
const dayStart = (d: string) => `(${lit(d)}::date::timestamp at time zone 'Asia/Shanghai')`;
function dateRange(column: string, f: Filter): string {
  return `${f.startdate ? `and ${column} >= ${dayStart(String(f.startdate))}` : ''} ${f.enddate ? `and ${column} < ${dayStart(addDays(String(f.enddate), 1))}` : ''}`;
}
/** Counted reports (alias a, person p) under the whole filter. */
function counted(f: Filter, extra = ''): string {
  return `from assessment a join cuser p on p.cusercode = a.cusercode and p.deletedat is null
    where a.hidden = 0 and a.voided = 0 and a.musercode in (${institutions(f)})
    ${f.appid ? `and a.appid = ${lit(String(f.appid))}` : ''} ${f.stagecode ? `and a.stagecode = ${lit(String(f.stagecode))}` : ''}
    ${dateRange('a.createdat', f)} ${extra}`;
}
const ab = `count(*) filter (where a.mentalstate >= 2)::int`;
const ratio = `case when count(*) = 0 then 0 else round(${ab}::numeric / count(*), 4)::float8 end`;
const chinaDay = (col: string) => `(${col} at time zone 'Asia/Shanghai')::date`;
const chinaMonth = (col: string) => `to_char(${col} at time zone 'Asia/Shanghai', 'YYYY-MM')`;
/** A trend's window: the filter's dates, else the last `days` days / 12 months ending today. */
function monthWindow(f: Filter): Filter {
  if (f.startdate || f.enddate) return f;
  const today = chinaDate(new Date());
  return { ...f, startdate: `${addMonths(today.slice(0, 7), -11)}-01`, enddate: today };
}
function dayWindow(f: Filter): Filter {
  if (f.startdate && f.enddate) return f;
  const today = chinaDate(new Date());
  return { ...f, startdate: String(f.startdate ?? addDays(String(f.enddate ?? today), -29)), enddate: String(f.enddate ?? today) };
}
const classTask = `join task_person tp on tp.assesscode = a.assesscode join team t on t.teamid = tp.teamid and t.kind = 'class'`;
const mood = (m: string) => (f: Filter) =>
  `select i.level, count(*)::int as count from assessment_indicator i join assessment a on a.assessid = i.assessid
   join cuser p on p.cusercode = a.cusercode and p.deletedat is null
   where i.mood = '${m}' and i.level is not null and a.hidden = 0 and a.voided = 0 and a.musercode in (${institutions(f)})
   ${f.appid ? `and a.appid = ${lit(String(f.appid))}` : ''} ${f.stagecode ? `and a.stagecode = ${lit(String(f.stagecode))}` : ''} ${dateRange('a.createdat', f)}
   group by i.level`;
const authorizations = (f: Filter) =>
  `from plan_authorize z join plan pl on pl.plancode = z.plancode
   where (z.musercode in (${scopeSql()}) or pl.musercode in (${scopeSql()})) ${f.musercode ? `and z.musercode = ${lit(String(f.musercode))}` : ''}`;

const RAW: Record<string, (f: Filter) => string> = {
  'as.m.assess.getStatsInstitutionList': (f) =>
    `select m.musercode, m.insname, m.musertype from muser m where m.musercode in (${institutions(f)}) order by m.musercode limit ${STATS_INSTITUTION_CAP}`,
  'as.m.assess.getAssessSchoolCount': (f) =>
    `select count(*)::int as total, count(*) filter (where exists (select 1 ${counted({ ...f, musercode: '' }, 'and a.musercode = i.musercode')}))::int as assessed
     from (${institutions(f)}) i join muser im on im.musercode = i.musercode and im.musertype <> '005' ${f.appid ? `where exists (select 1 from muser_app ma where ma.musercode = i.musercode and ma.appid = ${lit(String(f.appid))})` : ''}`,
  'as.m.assess.getAssessCount': (f) => `select count(*)::int as count ${counted(f)}`,
  'as.m.assess.getAssessPeopleCount': (f) =>
    `select count(*)::int as count from cuser p where p.deletedat is null and p.musercode in (${institutions(f)})
     ${f.appid ? `and p.appid = ${lit(String(f.appid))}` : ''} ${dateRange('p.createdat', f)}`,
  'as.m.assess.getAssessPeopleCompleteCount': (f) => `select count(distinct a.cusercode)::int as count ${counted(f)}`,
  'as.m.assess.getAssessAbnormalCount': (f) => `select count(*)::int as count ${counted(f, 'and a.mentalstate >= 2')}`,
  'as.m.assess.getAssessDayCountTrend': (f) => {
    const w = dayWindow(f);
    return `select to_char(d, 'YYYY-MM-DD') as date, coalesce(r.count, 0)::int as count, coalesce(r.abnormal, 0)::int as abnormal
      from generate_series(${lit(String(w.startdate))}::date, ${lit(String(w.enddate))}::date, interval '1 day') d
      left join (select ${chinaDay('a.createdat')} as day, count(*) as count, ${ab} as abnormal ${counted(w)} group by 1) r on r.day = d::date order by d`;
  },
  'as.m.assess.getAssessGradeCountTrend': (f) => {
    const w = monthWindow(f);
    return `select ${chinaMonth('a.createdat')} as month, t.grade, count(*)::int as count, ${ab} as abnormal
      from assessment a join cuser p on p.cusercode = a.cusercode and p.deletedat is null ${classTask}
      ${counted(w).replace(/^from assessment a join cuser p on p.cusercode = a.cusercode and p.deletedat is null/, '')} group by 1, 2 order by 1, 2`;
  },
  'as.m.assess.getClassReportCountRatio': (f) =>
    `select t.teamid, t.musercode, m.insname, t.grade, t.classname, count(*)::int as count, ${ab} as abnormal, ${ratio} as ratio
     from assessment a join cuser p on p.cusercode = a.cusercode and p.deletedat is null ${classTask} join muser m on m.musercode = t.musercode
     ${counted(f).replace(/^from assessment a join cuser p on p.cusercode = a.cusercode and p.deletedat is null/, '')}
     group by t.teamid, t.musercode, m.insname, t.grade, t.classname`,
  'as.m.assess.getSceneCountTrend': (f) => {
    const w = monthWindow(f);
    return `select ${chinaMonth('a.createdat')} as month, a.appid, ap.appname, count(*)::int as count, ${ab} as abnormal
      from assessment a join cuser p on p.cusercode = a.cusercode and p.deletedat is null join app ap on ap.appid = a.appid
      ${counted(w).replace(/^from assessment a join cuser p on p.cusercode = a.cusercode and p.deletedat is null/, '')} group by 1, 2, 3 order by 1, 2`;
  },
  'as.m.assess.getDepressedQuotaCountRatio': mood('depressed'),
  'as.m.assess.getAnxiousQuotaCountRatio': mood('anxious'),
  'as.m.assess.getManAndWomanAbnormalCountRatio': (f) =>
    `select g.gender, count(a.assessid)::int as count, count(a.assessid) filter (where a.mentalstate >= 2)::int as abnormal
     from (values ('01'), ('02')) g(gender) left join (select a.assessid, a.mentalstate, p.gender ${counted(f)}) a on a.gender = g.gender group by g.gender order by g.gender`,
  'as.m.assess.getGradeReportCountRatio': (f) =>
    `select t.grade, count(*)::int as count, ${ab} as abnormal, ${ratio} as ratio
     from assessment a join cuser p on p.cusercode = a.cusercode and p.deletedat is null ${classTask}
     ${counted(f).replace(/^from assessment a join cuser p on p.cusercode = a.cusercode and p.deletedat is null/, '')} group by t.grade`,
  'as.m.hospital.statistic.getTotalAssessCount': (f) => `select count(*)::int as reports, count(distinct a.cusercode)::int as persons, ${ab} as abnormal ${counted(f)}`,
  'as.m.hospital.statistic.getCompleteAssessCount': (f) =>
    `select count(*)::int as total, count(*) filter (where c.status = 'issued')::int as issued, count(*) filter (where c.status = 'started')::int as started,
       count(*) filter (where c.status = 'finished')::int as finished
     from assess_code c join cuser p on p.cusercode = c.cusercode and p.deletedat is null
     where c.musercode in (${institutions(f)}) ${f.stagecode ? `and c.stagecode = ${lit(String(f.stagecode))}` : ''}
     ${f.appid ? `and p.appid = ${lit(String(f.appid))}` : ''} ${dateRange('c.createdat', f)}`,
  'as.m.hospital.statistic.getPlanAuthorizeDetails': (f) => `select count(*)::int as total ${authorizations(f)}`,
  'as.m.hospital.statistic.getPlanAuthorizeCount': (f) =>
    `select count(*)::int as authorizations, coalesce(sum(z.count), 0)::int as count, coalesce(sum(z.usedcount), 0)::int as used ${authorizations(f)}`,
  'as.m.hospital.statistic.getInterfereRecord': (f) =>
    `select (select count(*)::int from follow_up u where u.musercode in (${institutions(f)}) ${f.startdate ? `and u.followdate >= ${lit(String(f.startdate))}` : ''} ${f.enddate ? `and u.followdate <= ${lit(String(f.enddate))}` : ''}) as total,
       count(*)::int as cases, count(*) filter (where w.state <> 'closed')::int as open, count(*) filter (where w.state = 'closed')::int as closed,
       count(*) filter (where w.level = 'critical')::int as critical
     from warn_case w where w.musercode in (${institutions(f)}) ${dateRange('w.openedat', f)}`,
};

/** The raw rows in the action's answer shape. */
function shape(name: string, rows: Record<string, unknown>[]): unknown {
  const short = name.split('.').pop()!;
  switch (short) {
    case 'getAssessDayCountTrend':
    case 'getSceneCountTrend':
      return { rows };
    case 'getClassReportCountRatio':
      return {
        rows: rows
          .sort((a, b) => byText(a.insname, b.insname) || byText(a.grade, b.grade) || byText(a.classname, b.classname) || String(a.teamid).localeCompare(String(b.teamid)))
          .slice(0, 500),
      };
    case 'getGradeReportCountRatio':
      return { rows: rows.sort((a, b) => byText(a.grade, b.grade)) };
    case 'getManAndWomanAbnormalCountRatio':
      return { rows: rows.map((r) => ({ ...r, ratio: Number(r.count) ? round4(Number(r.abnormal) / Number(r.count)) : 0 })) };
    case 'getAssessGradeCountTrend':
      return { grades: [...new Set(rows.map((r) => String(r.grade)))].sort(byText), rows: rows.sort((a, b) => String(a.month).localeCompare(String(b.month)) || byText(a.grade, b.grade)) };
    case 'getDepressedQuotaCountRatio':
    case 'getAnxiousQuotaCountRatio': {
      const total = rows.reduce((s, r) => s + Number(r.count), 0);
      return {
        total,
        rows: [0, 1, 2, 3, 4].map((level) => {
          const count = Number(rows.find((r) => Number(r.level) === level)?.count ?? 0);
          return { level, count, ratio: total ? round4(count / total) : 0 };
        }),
      };
    }
    case 'getCompleteAssessCount': {
      const r = rows[0]!;
      return { ...r, ratio: Number(r.total) ? round4(Number(r.finished) / Number(r.total)) : 0 };
    }
    case 'getPlanAuthorizeCount': {
      const r = rows[0]!;
      return { authorizations: r.authorizations, count: r.count, used: r.used, remaining: Number(r.count) - Number(r.used) };
    }
    case 'getInterfereRecord': {
      const r = rows[0]!;
      return { total: r.total, cases: { total: r.cases, open: r.open, closed: r.closed, critical: r.critical } };
    }
    case 'getStatsInstitutionList':
      return rows;
    default:
      return rows[0];
  }
}

const round4 = (v: number) => Math.round(v * 10_000) / 10_000;
/**
 * The server's order of names, grades and classes (statistics/handlers.ts: localeCompare 'zh-CN',
 * numeric), through one Intl.Collator: the same order, without building a collator per comparison
 * (String.localeCompare with a locale does, about 60 µs a call: 230 ms for 3,800 classes).
 */
const collator = new Intl.Collator('zh-CN', { numeric: true });
const byText = (a: unknown, b: unknown) => collator.compare(String(a), String(b));

/**
 * The part of an answer compared: counts and ratios, rows in the contract's order (every field
 * the raw SQL gives). For the paged and per-institution answers only their totals are compared.
 */
function normalise(name: string, data: unknown): unknown {
  if (!data || typeof data !== 'object') return data;
  const d = data as Record<string, unknown>;
  const short = name.split('.').pop()!;
  const rowsOf = (keys: string[]) => ((d.rows ?? []) as Record<string, unknown>[]).map((r) => Object.fromEntries(keys.map((k) => [k, r[k]])));
  switch (short) {
    case 'getAssessSchoolCount':
      return { total: d.total, assessed: d.assessed };
    case 'getAssessCount':
    case 'getAssessPeopleCount':
    case 'getAssessPeopleCompleteCount':
    case 'getAssessAbnormalCount':
      return { count: d.count };
    case 'getAssessDayCountTrend':
      return rowsOf(['date', 'count', 'abnormal']);
    case 'getAssessGradeCountTrend':
      return { grades: d.grades, rows: rowsOf(['month', 'grade', 'count', 'abnormal']).filter((r) => Number(r.count) > 0) };
    case 'getClassReportCountRatio':
      return rowsOf(['teamid', 'musercode', 'insname', 'grade', 'classname', 'count', 'abnormal', 'ratio']);
    case 'getSceneCountTrend':
      return rowsOf(['month', 'appid', 'appname', 'count', 'abnormal']).filter((r) => Number(r.count) > 0);
    case 'getManAndWomanAbnormalCountRatio':
      return rowsOf(['gender', 'count', 'abnormal', 'ratio']);
    case 'getGradeReportCountRatio':
      return rowsOf(['grade', 'count', 'abnormal', 'ratio']);
    case 'getDepressedQuotaCountRatio':
    case 'getAnxiousQuotaCountRatio':
      return { total: d.total, rows: rowsOf(['level', 'count', 'ratio']) };
    case 'getTotalAssessCount':
      return { reports: d.reports, persons: d.persons, abnormal: d.abnormal };
    case 'getCompleteAssessCount':
      return { total: d.total, issued: d.issued, started: d.started, finished: d.finished, ratio: d.ratio };
    case 'getPlanAuthorizeDetails':
      return { total: d.total };
    case 'getPlanAuthorizeCount':
      return { authorizations: d.authorizations, count: d.count, used: d.used, remaining: d.remaining };
    case 'getInterfereRecord': {
      const cases = (d.cases ?? {}) as Record<string, unknown>;
      return { total: d.total, cases: { total: cases.total, open: cases.open, closed: cases.closed, critical: cases.critical } };
    }
    default:
      return d;
  }
}

// ---------- main: the database, the server, the bench (last, so every declaration above is initialised) ----------
async function main(): Promise<boolean> {
  const had = await requestedSize();
  if (dedicated && had !== REPORTS) {
    if (had !== 'absent') await admin(baseUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin(baseUrl, `CREATE DATABASE ${dbName}`);
  }
  console.log(`database ${dbName}: ${had === REPORTS ? 'loaded at this size already' : `filling with ${REPORTS.toLocaleString('en')} reports`}`);
  const gen = await generateStatsData({ reports: REPORTS, url, password: PASSWORD, log: (l) => console.log(l) });
  const secs = (ms: number | null) => (ms === null ? '-' : `${(ms / 1000).toFixed(1)} s`);
  if (gen.loaded || gen.rebuildMs !== null)
    console.log(`load ${secs(gen.loadMs)}, stats_rebuild() ${gen.rebuildMs === null ? 'absent (no migration 0014)' : secs(gen.rebuildMs)}, vacuum analyze ${secs(gen.vacuumMs)}`);

  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const one = async <T>(text: string) => (await db.query(text)).rows[0] as T;
  const totals = await one<{ reports: number; persons: number; institutions: number }>(
    `select (select count(*) from assessment)::int as reports, (select count(*) from cuser)::int as persons, (select count(*) from muser where musertype <> '005')::int as institutions`,
  );
  console.log(`${totals.reports.toLocaleString('en')} reports, ${totals.persons.toLocaleString('en')} persons, ${totals.institutions.toLocaleString('en')} institutions`);

  // BENCH_SERVER=0: the raw SQL side only (its figures and that every statement runs), no server.
  if (process.env.BENCH_SERVER === '0') {
    const failed = await run(null, db, totals.reports);
    await db.end();
    return failed;
  }

  // ---------- the server ----------
  if (process.env.BENCH_SERVE_BUILD !== '0') execFileSync(process.execPath, [path.join(root, 'apps/server/scripts/build.mjs')], { stdio: 'inherit' });
  // Background jobs off unless JOB_POLL_MS says (as bench/profile.ts): the generated data holds
  // ~190,000 overdue codes, and the hourly missed-deadline sweep raising their warnings, one
  // transaction each, keeps a core busy for about an hour: it would be measured, not statistics.
  const child = spawn(process.execPath, ['--enable-source-maps', '--max-semi-space-size=32', path.join(root, 'apps/server/dist/main.js')], {
    env: { ...process.env, DATABASE_URL: url, PORT: '0', HOST: '127.0.0.1', SERVER_PROCESSES: process.env.SERVER_PROCESSES ?? '1', XINLI_DEMO: '0', LOG_LEVEL: 'silent', JOB_POLL_MS: process.env.JOB_POLL_MS ?? '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  };
  try {
    const base = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`the server did not listen within 120 s:\n${out}`)), 120_000);
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /Xinli console: (http:\/\/\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!.replace('localhost', '127.0.0.1'));
        }
      });
      child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it listened:\n${out}`)));
    });
    return await run(base, db, totals.reports);
  } finally {
    await stop();
    await db.end();
  }
}

process.exit((await main()) ? 1 : 0);

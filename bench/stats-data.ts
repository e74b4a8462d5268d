/**
 * Statistics data generator (issue 15 item 5): fills a database with realistic institutions,
 * persons, classes, group tasks, given assessments, reports, indicator results, warnings and
 * follow-ups, written with SQL (multi-row INSERTs for the few hundred or thousand accounts, and
 * INSERT … SELECT over generate_series for the large tables, generated inside the database so
 * nothing crosses the socket row by row), never through the API.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/xinli_bench_stats npx tsx bench/stats-data.ts
 *   npx tsx bench/stats-data.ts           (PGlite in DATA_DIR, default <tmp>/xinli-stats; 50,000 reports)
 *   npm run bench:stats-data                                       (the same, sizes from BENCH_REPORTS)
 *
 * The database must be empty or hold data this generator loaded at the same size (then nothing
 * is done). It is migrated by the server's own migrations and its reference data (menus, apps,
 * exam categories, the built-in scales) synced as the server does at start. The large tables are
 * loaded with their secondary indexes dropped and rebuilt afterwards, in a session with
 * `session_replication_role = replica` (no trigger fires, foreign keys included: the generator
 * writes them consistent itself); then `select stats_rebuild()` recomputes the statistics
 * aggregates from the raw rows when the database has that function (migration 0014).
 *
 * Shape, scaled from the number of reports R (BENCH_REPORTS, default 3,000,000):
 * - R/3 persons over about R/1,500 institutions (schools 001, hospitals 002, employers 003,
 *   elderly care 004) under five providers (005) and a few without one, in real GB/T 2260
 *   districts (@vant/area-data); about a third of the schools are in 杭州市 (330100), the region of
 *   the education bureau account `bench_bureau` (type 005, login-as marker JYJ, no app dialog,
 *   the demo bureau's codes), whose password is BENCH_PASSWORD (default demo123), hashed as the
 *   server hashes it;
 * - persons of the four population apps with genders, birth dates and registration dates over the
 *   two years before today (more recent ones more often; students at the start of terms); 1% deleted;
 * - students in classes (team, team_member) of grades by school kind; each school gives every class
 *   a task (PHQ-A + GAD-7) each term (starting some day of March-April or September-October),
 *   one personal code per student
 *   registered by then (task_person + assess_code); others get one-time codes at random dates (EPDS,
 *   PHQ-9 or GDS-15, with GAD-7), fewer on weekends and in February;
 * - codes issued / started / finished; one report per form of a finished code, mental state 0-4
 *   skewed (about 62 / 22 / 10 / 4.5 / 1.5 %, a person's reports correlated), 2% hidden, 0.5%
 *   voided, with its TOTAL indicator row (mood depressed or anxious, band level = mental state);
 * - a warning per report at mental state 3 or 4, one case per such person in every state, and
 *   follow-ups on the cases in follow-up or closed.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { areaList } from '@vant/area-data';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../apps/server/src/db/database.js';
import { syncReferenceData } from '../apps/server/src/seed/reference.js';
import { hashPassword, md5Upper } from '../apps/server/src/domains/auth/passwords.js';

export interface StatsDataOptions {
  /** Reports to generate (about); everything else scales from it. */
  reports: number;
  /** PostgreSQL URL of the database to fill; absent: PGlite in dataDir. */
  url?: string;
  dataDir?: string;
  /** The bureau's password as typed (the server receives its uppercase MD5). */
  password?: string;
  now?: Date;
  log?: (line: string) => void;
}

export interface StatsDataResult {
  /** false: the database already held this size; nothing was loaded. */
  loaded: boolean;
  reports: number;
  persons: number;
  institutions: number;
  /** Raw tables and their indexes, ms. */
  loadMs: number;
  /** select stats_rebuild(), ms; null when the database has no such function. */
  rebuildMs: number | null;
  /** VACUUM ANALYZE of the loaded tables, ms. */
  vacuumMs: number;
}

export const BUREAU_USERNAME = 'bench_bureau';
export const BUREAU_MUSERCODE = 'BSJYJ';
/** The bureau's region: 杭州市. */
export const BUREAU_REGION = { provincecode: '330000', citycode: '330100', districtcode: '', regionname: '浙江省杭州市' };

/** The tables this generator fills in bulk: their secondary indexes are dropped while loading. */
const BULK_TABLES = ['cuser', 'team', 'team_member', 'task', 'task_team', 'task_person', 'assess_code', 'assessment', 'assessment_indicator', 'warn_case', 'warning', 'follow_up'];

/** The one client both engines are driven through: simple-protocol SQL text. */
interface Client {
  exec(sql: string): Promise<void>;
  rows<T>(sql: string): Promise<T[]>;
  close(): Promise<void>;
}

const q = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** A small deterministic generator (mulberry32) for the account rows made here. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const APPS = { maternity: '000000001', students: '000000002', workers: '000000003', elderly: '000000004' } as const;
/** Institution types: the app their persons belong to, the share of institutions and of persons, the forms given. */
const TYPES = [
  { musertype: '001', appid: APPS.students, institutions: 0.45, persons: 0.45, forms: ['PHQA', 'GAD7'], category: ['教育'] },
  { musertype: '002', appid: APPS.maternity, institutions: 0.1, persons: 0.12, forms: ['EPDS', 'GAD7'], category: ['医疗', '妇幼保健'] },
  { musertype: '003', appid: APPS.workers, institutions: 0.2, persons: 0.23, forms: ['PHQ9', 'GAD7'], category: ['企业'] },
  { musertype: '004', appid: APPS.elderly, institutions: 0.25, persons: 0.2, forms: ['GDS15', 'GAD7'], category: ['养老'] },
];
const SCHOOL_KINDS = [
  { kind: '小学', grades: ['一年级', '二年级', '三年级', '四年级', '五年级', '六年级'], suffix: '小学' },
  { kind: '初中', grades: ['七年级', '八年级', '九年级'], suffix: '中学' },
  { kind: '高中', grades: ['高一', '高二', '高三'], suffix: '高级中学' },
];
const NAME_PARTS = ['明', '华', '新', '实验', '育才', '阳光', '滨江', '东方', '江南', '文澜', '求是', '启明', '春晖', '仁和', '康宁', '长青', '福寿', '恒信', '远航', '星辰'];
const PROVIDERS = [
  { name: '安澜心理服务有限公司', region: ['330000', '330100', '330106'] },
  { name: '南粤心理健康服务中心', region: ['440000', '440100', '440106'] },
  { name: '京华心理科技有限公司', region: ['110000', '110100', '110105'] },
  { name: '巴蜀心理健康服务有限公司', region: ['510000', '510100', '510104'] },
  { name: '申江心理咨询有限公司', region: ['310000', '310100', '310115'] },
];
/** The demo bureau's codes (seed/demo.ts): statistics, data reports, warnings. */
const BUREAU_CODES = ['00010', '00011', '00012', '00051', '00052', '00053', '00013', '00046'];

function regionName(district: string): { provincecode: string; citycode: string; districtcode: string; regionname: string } {
  const provincecode = `${district.slice(0, 2)}0000`;
  const citycode = `${district.slice(0, 4)}00`;
  const province = areaList.province_list[provincecode] ?? '';
  const city = areaList.city_list[citycode] ?? '';
  return { provincecode, citycode, districtcode: district, regionname: `${province}${city}${areaList.county_list[district] ?? ''}` };
}

async function connect(opts: StatsDataOptions): Promise<Client> {
  if (opts.url) {
    const client = new pg.Client({ connectionString: opts.url });
    await client.connect();
    return {
      exec: async (s) => void (await client.query(s)),
      rows: async <T>(s: string) => (await client.query(s)).rows as T[],
      close: () => client.end(),
    };
  }
  const client = await PGlite.create(opts.dataDir);
  return {
    exec: async (s) => void (await client.exec(s)),
    rows: async <T>(s: string) => (await client.query<T>(s)).rows,
    close: () => client.close(),
  };
}

/** Migrates and syncs reference data through the server's own functions, then closes. */
async function prepare(opts: StatsDataOptions) {
  const database = await openDatabase(opts.url ? { url: opts.url } : { dataDir: opts.dataDir });
  try {
    await syncReferenceData(database.db);
  } finally {
    await database.close();
  }
}

/** The size already loaded, from the generator's marker table; null when none. */
export async function loadedSize(c: Pick<Client, 'rows'>): Promise<{ reports: number; requested: number; rebuilt: boolean } | null> {
  const [t] = await c.rows<{ t: string | null }>(`select to_regclass('bench_stats_meta')::text as t`);
  if (!t?.t) return null;
  const [m] = await c.rows<{ reports: number; requested: number; rebuilt: boolean }>(`select reports, requested, rebuilt from bench_stats_meta`);
  return m ?? null;
}

/** select stats_rebuild() when the database has it (migration 0014), timed; null when it has not. */
async function rebuild(c: Client, analyze = true): Promise<number | null> {
  const [fn] = await c.rows<{ f: string | null }>(`select to_regproc('stats_rebuild')::text as f`);
  if (!fn?.f) return null;
  const t = performance.now();
  await c.exec(`select stats_rebuild()`);
  const ms = performance.now() - t;
  if (analyze) await c.exec(`analyze`);
  return ms;
}

export async function generateStatsData(opts: StatsDataOptions): Promise<StatsDataResult> {
  const log = opts.log ?? (() => {});
  const R = Math.max(1000, Math.round(opts.reports));
  const now = opts.now ?? new Date();
  await prepare(opts);
  const c = await connect(opts);
  try {
    const done = await loadedSize(c);
    if (done?.requested === R) {
      const [n] = await c.rows<{ persons: number; institutions: number }>(
        `select (select count(*) from cuser)::int as persons, (select count(*) from muser where musertype <> '005')::int as institutions`,
      );
      // Loaded before the aggregates' migration existed: rebuild them once now.
      const rebuildMs = done.rebuilt ? null : await rebuild(c);
      if (rebuildMs !== null) await c.exec(`update bench_stats_meta set rebuilt = true`);
      return { loaded: false, reports: done.reports, persons: n!.persons, institutions: n!.institutions, loadMs: 0, rebuildMs, vacuumMs: 0 };
    }
    const [used] = await c.rows<{ n: number }>(`select count(*)::int as n from muser`);
    if (done || used!.n > 0) throw new Error('the database is not empty: give the generator an empty database (bench/stats.ts recreates its own)');
    return await load(c, R, now, opts.password ?? 'demo123', log);
  } finally {
    await c.close();
  }
}

async function load(c: Client, R: number, now: Date, password: string, log: (l: string) => void): Promise<StatsDataResult> {
  const t0 = performance.now();
  const rand = prng(20261123);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const P = Math.round(R / 3);
  const I = Math.max(24, Math.round(R / 1500));
  const nowIso = now.toISOString();
  const pwdhash = await hashPassword(md5Upper(password));
  let step = performance.now();
  const timed = async (what: string, s: string) => {
    await c.exec(s);
    log(`  ${what.padEnd(34)} ${((performance.now() - step) / 1000).toFixed(1).padStart(6)} s`);
    step = performance.now();
  };

  await c.exec(`set session_replication_role = replica; set maintenance_work_mem = '512MB'; set synchronous_commit = off`);
  // Secondary indexes of the bulk tables (not those behind primary keys or constraints): dropped now, built again after loading.
  const indexes = await c.rows<{ name: string; def: string }>(`
    select i.indexname as name, i.indexdef as def from pg_indexes i
    where i.schemaname = 'public' and i.tablename in (${BULK_TABLES.map(q).join(', ')})
      and not exists (select 1 from pg_constraint k where k.conname = i.indexname)`);
  for (const ix of indexes) await c.exec(`drop index ${ix.name}`);

  // ---------- accounts: providers, institutions, the bureau (multi-row INSERTs) ----------
  const counties = Object.keys(areaList.county_list).filter((code) => !code.endsWith('00') && areaList.city_list[`${code.slice(0, 4)}00`]);
  const hangzhou = counties.filter((code) => code.startsWith('3301'));
  const accounts: { musercode: string; username: string; musertype: string; insname: string; parentcode: string | null; region: ReturnType<typeof regionName>; category: string[]; extra?: string }[] = [];
  PROVIDERS.forEach((p, i) =>
    accounts.push({
      musercode: `BSP${i + 1}`,
      username: `bench_provider${i + 1}`,
      musertype: '005',
      insname: p.name,
      parentcode: null,
      region: regionName(p.region[2]!),
      category: ['服务商'],
    }),
  );
  // Institutions with their persons: counts drawn per type with a skew (a few large ones).
  const inst: { musercode: string; appid: string; musertype: string; npersons: number; firstno: number; grades: string[]; forms: string[]; provider: number }[] = [];
  let no = 0;
  let firstno = 0;
  for (const t of TYPES) {
    const n = Math.max(4, Math.round(I * t.institutions));
    const weights = Array.from({ length: n }, () => 0.25 + rand() ** 2 * 2);
    const sum = weights.reduce((a, b) => a + b, 0);
    for (let k = 0; k < n; k++) {
      no++;
      const musercode = `BSI${String(no).padStart(6, '0')}`;
      const school = t.musertype === '001' ? pick(SCHOOL_KINDS) : null;
      // A third of the schools and a tenth of the others in the bureau's city; the rest anywhere.
      const inHangzhou = rand() < (school ? 0.35 : 0.1);
      const region = regionName(inHangzhou ? pick(hangzhou) : pick(counties));
      const name = `${region.regionname.replace(/^.*?(市|自治州|地区|盟)/, '').slice(0, 4)}${pick(NAME_PARTS)}${school ? school.suffix : t.musertype === '002' ? '妇幼保健院' : t.musertype === '003' ? '科技有限公司' : '颐养中心'}${no}`;
      const provider = rand() < 0.05 ? -1 : Math.floor(rand() * PROVIDERS.length);
      const npersons = Math.max(20, Math.round((P * t.persons * weights[k]!) / sum));
      accounts.push({
        musercode,
        username: `bench_i${no}`,
        musertype: t.musertype,
        insname: name,
        parentcode: provider < 0 ? null : `BSP${provider + 1}`,
        region,
        category: school ? ['教育', school.kind, rand() < 0.85 ? '公办' : '民办'] : t.category,
      });
      inst.push({ musercode, appid: t.appid, musertype: t.musertype, npersons, firstno, grades: school?.grades ?? [], forms: t.forms, provider: Math.max(0, provider) });
      firstno += npersons;
    }
  }
  accounts.push({
    musercode: BUREAU_MUSERCODE,
    username: BUREAU_USERNAME,
    musertype: '005',
    insname: '杭州市教育局',
    parentcode: null,
    region: BUREAU_REGION,
    category: ['教育行政'],
    extra: 'JYJ',
  });
  const createdAt = new Date(now.getTime() - 800 * 86_400_000).toISOString();
  for (let i = 0; i < accounts.length; i += 500) {
    const values = accounts.slice(i, i + 500).map((a) => {
      const cat = [0, 1, 2, 3, 4, 5].map((k) => q(a.category[k] ?? ''));
      return `(${q(a.musercode)}, ${q(a.username)}, ${q(pwdhash)}, ${q(a.musertype)}, ${q(a.insname)}, ${q(a.region.provincecode)}, ${q(a.region.citycode)}, ${q(a.region.districtcode)}, ${q(a.region.regionname)}, ${q(a.category.at(-1) ?? '')}, ${a.category.length}, ${cat.join(', ')}, ${a.parentcode ? q(a.parentcode) : 'null'}, ${q(a.extra ?? '')}, ${a.extra ? 'true' : 'false'}, ${q(createdAt)}, ${q(createdAt)})`;
    });
    // muser in normal mode: its triggers (sign-in names, notifications) must run, as for any account.
    await c.exec(`set session_replication_role = origin;
      insert into muser (musercode, username, pwdhash, musertype, insname, provincecode, citycode, districtcode, regionname, categorycode, categorylevel,
        categorycode0, categorycode1, categorycode2, categorycode3, categorycode4, categorycode5, parentcode, loginasmarker, appdialogexempt, createdat, updatedat)
      values ${values.join(',\n')};
      set session_replication_role = replica`);
  }
  const grants = [
    ...BUREAU_CODES.map((code) => `(${q(BUREAU_MUSERCODE)}, ${q(code)})`),
    ...PROVIDERS.flatMap((_, i) => ['00010', '00011', '00012', '00051', '00052', '00053'].map((code) => `('BSP${i + 1}', ${q(code)})`)),
    ...inst.flatMap((s) => ['00010', '00011', '00012'].map((code) => `(${q(s.musercode)}, ${q(code)})`)),
  ];
  await c.exec(`insert into muser_permission (musercode, code) values ${grants.join(', ')}`);
  const apps = [
    `(${q(BUREAU_MUSERCODE)}, '${APPS.students}')`,
    ...PROVIDERS.flatMap((_, i) => Object.values(APPS).map((a) => `('BSP${i + 1}', '${a}')`)),
    ...inst.map((s) => `(${q(s.musercode)}, ${q(s.appid)})`),
  ];
  await c.exec(`insert into muser_app (musercode, appid) values ${apps.join(', ')}`);

  // Stages and plans: per provider and app one stage and one plan with two forms.
  const catOf: Record<string, string> = { [APPS.maternity]: 'C0101', [APPS.students]: 'C0202', [APPS.workers]: 'C0301', [APPS.elderly]: 'C0401' };
  const stageRows: string[] = [];
  const planRows: string[] = [];
  const planStageRows: string[] = [];
  const planFormRows: string[] = [];
  PROVIDERS.forEach((_, p) =>
    TYPES.forEach((t) => {
      const id = `BSP${p + 1}A${t.appid.slice(-1)}`;
      stageRows.push(`('ST${id}', 'BSP${p + 1}', '${t.appid}', '${catOf[t.appid]}', ${q(t.musertype === '001' ? '学期筛查' : '常规筛查')}, ${q(createdAt)}, ${q(createdAt)})`);
      planRows.push(`('PL${id}', 'BSP${p + 1}', ${q(`${t.forms.join('+')} 筛查方案`)}, '${t.appid}', ${q(createdAt)}, ${q(createdAt)})`);
      planStageRows.push(`('PL${id}', 'ST${id}', 0)`);
      t.forms.forEach((f, k) => planFormRows.push(`('PL${id}', 'ST${id}', '${f}', ${k})`));
    }),
  );
  await c.exec(`
    insert into exam_stage (stagecode, musercode, appid, categoryid, stagename, createdat, updatedat) values ${stageRows.join(', ')};
    insert into plan (plancode, musercode, planname, appid, createdat, updatedat) values ${planRows.join(', ')};
    insert into plan_stage (plancode, stagecode, sort) values ${planStageRows.join(', ')};
    insert into plan_form (plancode, stagecode, formcode, sort) values ${planFormRows.join(', ')};`);

  // The institutions' generation parameters, for the set-based inserts below.
  await c.exec(`create temp table bs_inst (musercode text primary key, appid text, musertype text, npersons int, firstno int, grades text[], forms text[], plancode text, stagecode text, nclasses int, insname text)`);
  for (let i = 0; i < inst.length; i += 500) {
    await c.exec(
      `insert into bs_inst values ${inst
        .slice(i, i + 500)
        .map((s) => {
          const id = `BSP${s.provider + 1}A${s.appid.slice(-1)}`;
          const arr = (l: string[]) => `array[${l.map(q).join(', ')}]::text[]`;
          const insname = accounts.find((a) => a.musercode === s.musercode)!.insname;
          return `(${q(s.musercode)}, ${q(s.appid)}, ${q(s.musertype)}, ${s.npersons}, ${s.firstno}, ${arr(s.grades)}, ${arr(s.forms)}, 'PL${id}', 'ST${id}', ${s.grades.length ? Math.max(1, Math.ceil(s.npersons / 45)) : 0}, ${q(insname)})`;
        })
        .join(', ')}`,
    );
  }
  log(`  accounts, plans (${accounts.length} accounts)`.padEnd(36) + ` ${((performance.now() - step) / 1000).toFixed(1).padStart(6)} s`);
  step = performance.now();

  // ---------- persons ----------
  // Registration over the two years before now, more recent more often (sqrt); students at the start of a term.
  await c.exec(`select setseed(0.20261123)`);
  await timed(
    'persons (temp)',
    `create temp table bs_person as
     select 'BC' || lpad((i.firstno + g)::text, 8, '0') as cusercode, i.musercode, i.appid, g as k, random() as risk,
       case when i.appid = '${APPS.students}'
         then least(timestamptz ${q(nowIso)} - interval '2 days',
                    make_timestamptz(y.y, m.m, 1 + (random() * 14)::int, 8 + (random() * 9)::int, (random() * 59)::int, 0, 'Asia/Shanghai'))
         else timestamptz ${q(nowIso)} - interval '730 days' * (1 - sqrt(random())) - interval '1 day' end as createdat,
       (random() < 0.01) as deleted,
       case when i.nclasses > 0 then 'BT' || substr(i.musercode, 4) || lpad((g % i.nclasses)::text, 3, '0') end as teamid
     from bs_inst i
     cross join generate_series(0, i.npersons - 1) g
     -- a student's term of registration: September or February of the last two school years, the earliest most often
     cross join lateral (select (extract(year from timestamptz ${q(nowIso)}) - 2 + floor(random() * 2.2) + 0 * g)::int as y) y
     cross join lateral (select case when random() < 0.7 + 0 * g then 9 else 2 end as m) m;
     update bs_person set createdat = timestamptz ${q(nowIso)} - interval '700 days' * random() where createdat < timestamptz ${q(nowIso)} - interval '730 days'`,
  );
  await timed(
    'cuser',
    `insert into cuser (cusercode, musercode, appid, realname, gender, birthdate, phonenumber, archive, source, createdat, updatedat, deletedat, deletedby)
     select p.cusercode, p.musercode, p.appid,
       (array['王','李','张','刘','陈','杨','黄','赵','吴','周','徐','孙','马','朱','胡','郭','何','高','林','罗'])[1 + floor(random() * 20)::int]
         || (array['伟','芳','娜','敏','静','丽','强','磊','军','洋','勇','艳','杰','娟','涛','明','超','秀英','华','慧'])[1 + floor(random() * 20)::int]
         || case when random() < 0.5 then (array['一','晨','宇','欣','怡','浩','然','轩','涵','博'])[1 + floor(random() * 10)::int] else '' end,
       case p.appid when '${APPS.maternity}' then '02' when '${APPS.students}' then (case when random() < 0.51 then '01' else '02' end)
         when '${APPS.workers}' then (case when random() < 0.56 then '01' else '02' end) else (case when random() < 0.45 then '01' else '02' end) end,
       (date '2026-01-01' - (365.25 * case p.appid when '${APPS.maternity}' then 24 + random() * 14 when '${APPS.students}' then 7 + random() * 11
          when '${APPS.workers}' then 22 + random() * 38 else 60 + random() * 30 end)::int),
       '1' || (array['3','5','8','9'])[1 + floor(random() * 4)::int] || lpad(floor(random() * 1000000000)::bigint::text, 9, '0'),
       '[]'::jsonb, case when p.appid = '${APPS.students}' then 'import' when random() < 0.4 then 'qrcode' else 'console' end,
       p.createdat, p.createdat,
       case when p.deleted then timestamptz ${q(nowIso)} - interval '30 days' * random() end,
       case when p.deleted then p.musercode end
     from bs_person p`,
  );

  // ---------- classes, rosters, tasks ----------
  await timed(
    'team, team_member',
    `insert into team (teamid, musercode, kind, appid, school, year, term, grade, classname, createdat)
     select 'BT' || substr(i.musercode, 4) || lpad(c::text, 3, '0'), i.musercode, 'class', i.appid, i.insname,
       extract(year from timestamptz ${q(nowIso)} - interval '8 months')::text, '1',
       i.grades[1 + c % cardinality(i.grades)], (c / cardinality(i.grades) + 1)::text || '班', timestamptz ${q(nowIso)} - interval '760 days'
     from bs_inst i cross join generate_series(0, i.nclasses - 1) c where i.nclasses > 0;
     insert into team_member (teamid, cusercode, studentno, joinedat)
     select teamid, cusercode, lpad(k::text, 6, '0'), createdat from bs_person where teamid is not null`,
  );
  // Tasks: every school, each term of the two years before now (starting within 55 days of 1 March or 1 September), all its classes.
  await timed(
    'task, task_team',
    `create temp table bs_task as
     select 'BK' || substr(i.musercode, 4) || '-' || to_char(s.at, 'YYMM') as taskid, i.musercode, i.plancode, i.stagecode, i.nclasses, s.at as startat
     from bs_inst i
     cross join lateral (
       select make_timestamptz(y, m, 1, 8, 0, 0, 'Asia/Shanghai') + interval '1 day' * floor(random() * 55 + 0 * i.nclasses) as at
       from generate_series(extract(year from timestamptz ${q(nowIso)})::int - 2, extract(year from timestamptz ${q(nowIso)})::int) y, (values (3), (9)) mm(m)
     ) s
     where i.nclasses > 0 and s.at between timestamptz ${q(nowIso)} - interval '730 days' and timestamptz ${q(nowIso)} - interval '2 days';
     insert into task (taskid, musercode, taskname, plancode, taskcode, startat, endat, createdby, createdat)
     select taskid, musercode, to_char(startat at time zone 'Asia/Shanghai', 'YYYY"年"MM"月"') || '心理健康筛查', plancode,
       'T' || upper(substr(md5(taskid), 1, 9)), startat, startat + interval '21 days', musercode, startat - interval '3 days' from bs_task;
     insert into task_team (taskid, teamid)
     select t.taskid, 'BT' || substr(t.musercode, 4) || lpad(c::text, 3, '0') from bs_task t cross join generate_series(0, t.nclasses - 1) c`,
  );

  // ---------- given assessments (one-time codes) ----------
  // Students: one code per task for each student registered before it (97%), finished over the
  // task's school days. Others: Poisson-like codes at random dates after registering.
  await timed(
    'codes of tasks (temp)',
    `create temp table bs_code as
     select t.taskid, p.teamid, lpad(p.k::text, 6, '0') as studentno, p.cusercode, p.musercode, p.appid, t.plancode, t.stagecode, p.risk,
       t.startat as createdat,
       d.at + interval '1 minute' * (random() * 540) as doneat
     from bs_task t join bs_person p on p.musercode = t.musercode and p.createdat < t.startat
     cross join lateral (select t.startat + interval '1 day' * floor(random() * 12 + 0 * p.k) as at0) a
     -- school days only: a weekend's sheets move to the Friday before or the Monday after
     cross join lateral (select a.at0 + case extract(isodow from a.at0 at time zone 'Asia/Shanghai') when 6 then interval '-1 day' when 7 then interval '1 day' else interval '0' end as at) d
     where random() < 0.97`,
  );
  const [students] = await c.rows<{ n: number }>(`select count(*)::int as n from bs_code`);
  const [others] = await c.rows<{ n: number; years: number }>(
    `select count(*)::int as n, coalesce(avg(extract(epoch from (timestamptz ${q(nowIso)} - createdat)) / 86400 / 365.25), 1)::float8 as years from bs_person where teamid is null`,
  );
  // Each code of a finished assessment gives two reports; about 88% finish.
  const rate = Math.max(0.05, (R - students!.n * 2 * 0.88) / (2 * 0.88 * Math.max(1, others!.n)));
  const slots = Math.max(1, Math.ceil(rate * 2));
  await timed(
    `codes of others (${rate.toFixed(2)} a person)`,
    `insert into bs_code (taskid, teamid, studentno, cusercode, musercode, appid, plancode, stagecode, risk, createdat, doneat)
     select null, null, null, p.cusercode, p.musercode, p.appid, i.plancode, i.stagecode, p.risk, d.at, d.at + interval '1 hour' * (random() ^ 4 * 72)
     from bs_person p join bs_inst i on i.musercode = p.musercode
     cross join generate_series(1, ${slots}) s
     cross join lateral (select p.createdat + (timestamptz ${q(nowIso)} - p.createdat) * random() + interval '0' * s as at0) a
     -- fewer on weekends (70% of them moved to Friday or Monday) and in February (40% moved into March)
     cross join lateral (select a.at0
       + case when extract(isodow from a.at0 at time zone 'Asia/Shanghai') = 6 and random() < 0.7 then interval '-1 day'
              when extract(isodow from a.at0 at time zone 'Asia/Shanghai') = 7 and random() < 0.7 then interval '1 day' else interval '0' end
       + case when extract(month from a.at0 at time zone 'Asia/Shanghai') = 2 and random() < 0.4 then interval '25 days' else interval '0' end as at) d
     where p.teamid is null and random() < ${rate / slots}`,
  );
  await timed(
    'assess_code',
    `create temp table bs_given as
     select 'BA' || lpad((row_number() over ())::text, 9, '0') as assesscode, b.*, i.forms,
       case when b.doneat > timestamptz ${q(nowIso)} then (case when random() < 0.3 then 'started' else 'issued' end)
            else (case when u < 0.88 then 'finished' when u < 0.93 then 'started' else 'issued' end) end as status
     from bs_code b join bs_inst i on i.musercode = b.musercode cross join lateral (select random() as u, b.cusercode as _c) r;
     insert into assess_code (assesscode, musercode, cusercode, plancode, stagecode, authid, formcodes, status, createdby, createdat, startedat, finishedat)
     select assesscode, musercode, cusercode, plancode, stagecode, null, to_jsonb(forms), status, musercode, createdat,
       case when status <> 'issued' then least(doneat - interval '10 minutes', timestamptz ${q(nowIso)}) end,
       case when status = 'finished' then doneat end
     from bs_given;
     insert into task_person (taskid, cusercode, teamid, studentno, assesscode, createdat)
     select taskid, cusercode, teamid, studentno, assesscode, createdat from bs_given where taskid is not null`,
  );

  // ---------- reports and indicator results ----------
  // x mixes the person's trait with this sheet's chance; thresholds give about 62/22/10/4.5/1.5 %
  // (the quantiles of a triangular distribution), a little higher for maternity and elderly care.
  await timed(
    'assessment',
    `insert into assessment (assessid, formcode, version, musercode, cusercode, assesscode, plancode, stagecode, appid, answers, scores,
       mentalstate, level, colour, warning, voided, hidden, createdat)
     select g.assesscode || '-' || f.n, f.formcode, v.version, g.musercode, g.cusercode, g.assesscode, g.plancode, g.stagecode, g.appid,
       '[]'::jsonb, '{}'::jsonb, s.state, s.state, (array['#52c41a','#1677ff','#faad14','#fa8c16','#f5222d'])[s.state + 1],
       (s.state >= 3)::int, (random() < 0.005)::int, (random() < 0.02)::int,
       g.doneat - interval '4 minutes' * (cardinality(g.forms) - f.n)
     from bs_given g
     cross join lateral unnest(g.forms) with ordinality f(formcode, n)
     join (select formcode, max(version) as version from form group by formcode) v on v.formcode = f.formcode
     cross join lateral (select 0.5 * random() + 0.5 * g.risk + case when g.appid in ('${APPS.maternity}', '${APPS.elderly}') then 0.03 else 0 end as x) r
     cross join lateral (select case when r.x < 0.5641 then 0 when r.x < 0.7172 then 1 when r.x < 0.8268 then 2 when r.x < 0.9134 then 3 else 4 end as state) s
     where g.status = 'finished'`,
  );
  await timed(
    'assessment_indicator',
    `insert into assessment_indicator (assessid, formcode, code, score, level, colour, mood)
     select assessid, formcode, 'TOTAL',
       (array[0, 5, 10, 15, 20])[mentalstate + 1] + floor(random() * 5), mentalstate, colour,
       case when formcode = 'GAD7' then 'anxious' else 'depressed' end
     from assessment where assessid like 'BA%'`,
  );

  // ---------- warnings, cases, follow-ups ----------
  await timed(
    'warn_case, warning, follow_up',
    `create temp table bs_case as
     select 'BW' || substr(cusercode, 3) as caseid, musercode, cusercode, appid, min(createdat) as openedat, max(createdat) as lastwarningat,
       case when max(mentalstate) = 4 then 'critical' else 'attention' end as level, random() as u
     from assessment where mentalstate >= 3 and voided = 0 and assessid like 'BA%' group by musercode, cusercode, appid;
     insert into warn_case (caseid, musercode, cusercode, appid, state, level, assignee, outcome, note, openedat, lastwarningat, acknowledgedat, closedat)
     select caseid, musercode, cusercode, appid, st.state, level, '',
       case when st.state = 'closed' then (array['referred','resolved','resolved','false_alarm','lost_contact','other'])[1 + floor(u * 97)::int % 6] end,
       '', openedat, lastwarningat,
       case when st.state <> 'open' then openedat + interval '3 hours' end,
       case when st.state = 'closed' then least(openedat + interval '20 days', timestamptz ${q(nowIso)}) end
     from bs_case cross join lateral (select case when u < 0.5 then 'closed' when u < 0.75 then 'followup' when u < 0.9 then 'acknowledged' else 'open' end as state) st;
     insert into warning (warningid, musercode, cusercode, caseid, assessid, assesscode, kind, level, reason, params, formcode, stagecode, createdby, createdat)
     select 'BWR' || a.assessid, a.musercode, a.cusercode, 'BW' || substr(a.cusercode, 3), a.assessid, a.assesscode, 'band',
       case when a.mentalstate = 4 then 'critical' else 'attention' end, 'band',
       jsonb_build_object('items', jsonb_build_array(jsonb_build_object('indicator', 'TOTAL', 'bandlevel', a.mentalstate, 'text', jsonb_build_object('zh', '总分处于预警分段', 'en', 'Total in a warning band')))),
       a.formcode, a.stagecode, 'system', a.createdat
     from assessment a where a.mentalstate >= 3 and a.voided = 0 and a.assessid like 'BA%';
     insert into follow_up (followid, caseid, musercode, cusercode, followdate, way, by, byname, content, risk, nextdate, createdat)
     select 'BF' || substr(w.caseid, 3) || '-' || n, w.caseid, w.musercode, w.cusercode,
       (w.openedat at time zone 'Asia/Shanghai')::date + 2 + 7 * n, (array['phone','visit','interview','online','other'])[1 + (n + floor(b.u * 50)::int) % 5],
       w.musercode, '心理老师', '电话回访，情绪较前平稳，约定下次面谈。', 1 + floor(b.u * 40)::int % 4, '',
       least(w.openedat + interval '2 days' + interval '7 days' * n, timestamptz ${q(nowIso)})
     from warn_case w join bs_case b on b.caseid = w.caseid cross join generate_series(0, 1) n
     where w.state in ('followup', 'closed') and (n = 0 or b.u < 0.3) and w.openedat + interval '2 days' + interval '7 days' * n < timestamptz ${q(nowIso)};
     update warn_case w set lastfollowid = f.followid from (select distinct on (caseid) caseid, followid from follow_up where caseid like 'BW%' order by caseid, followdate desc) f
     where f.caseid = w.caseid`,
  );
  // Plan authorisations: each institution's plan from its provider, sized to the codes it gave.
  await timed(
    'plan_authorize',
    `insert into plan_authorize (authid, plancode, musercode, count, usedcount, startdate, enddate, grantedby, createdat)
     select 'BZ' || substr(i.musercode, 4), i.plancode, i.musercode, ceil(coalesce(g.n, 0) * 1.2)::int + 50, coalesce(g.n, 0),
       (timestamptz ${q(nowIso)} - interval '740 days')::date,
       (timestamptz ${q(nowIso)} + interval '1 day' * (floor(random() * 120) - 30))::date, substr(i.plancode, 3, 4), timestamptz ${q(nowIso)} - interval '740 days'
     from bs_inst i left join (select musercode, count(*)::int as n from bs_given group by musercode) g on g.musercode = i.musercode`,
  );

  for (const ix of indexes) await c.exec(ix.def);
  log(`  indexes rebuilt (${indexes.length})`.padEnd(36) + ` ${((performance.now() - step) / 1000).toFixed(1).padStart(6)} s`);
  await c.exec(`set session_replication_role = origin; drop table bs_inst, bs_person, bs_task, bs_code, bs_given, bs_case`);
  const loadMs = performance.now() - t0;

  // ---------- aggregates, statistics of the planner, the marker ----------
  // (the vacuum analyze below follows)
  const rebuildMs = await rebuild(c, false);
  const tv = performance.now();
  await c.exec(`vacuum analyze`);
  const vacuumMs = performance.now() - tv;
  const [n] = await c.rows<{ reports: number; persons: number; institutions: number }>(
    `select (select count(*) from assessment)::int as reports, (select count(*) from cuser)::int as persons, (select count(*) from muser where musertype <> '005')::int as institutions`,
  );
  await c.exec(`create table bench_stats_meta (requested int not null, reports int not null, rebuilt boolean not null, loadedat timestamptz not null);
    insert into bench_stats_meta values (${R}, ${n!.reports}, ${rebuildMs !== null}, now())`);
  return { loaded: true, ...n!, loadMs, rebuildMs, vacuumMs };
}

// ---------- CLI ----------
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const url = process.env.DATABASE_URL;
  const dataDir = url ? undefined : (process.env.DATA_DIR ?? path.join(os.tmpdir(), 'xinli-stats'));
  const reports = Number(process.env.BENCH_REPORTS ?? (url ? 3_000_000 : 50_000));
  console.log(`stats data: ${reports.toLocaleString('en')} reports into ${url ? url.replace(/\/\/[^@]*@/, '//') : `PGlite ${dataDir}`}`);
  const r = await generateStatsData({ reports, url, dataDir, password: process.env.BENCH_PASSWORD, log: (l) => console.log(l) });
  const s = (ms: number | null) => (ms === null ? 'no stats_rebuild() in this database' : `${(ms / 1000).toFixed(1)} s`);
  console.log(
    r.loaded
      ? `loaded ${r.reports.toLocaleString('en')} reports, ${r.persons.toLocaleString('en')} persons, ${r.institutions.toLocaleString('en')} institutions: load ${s(r.loadMs)}, stats_rebuild() ${s(r.rebuildMs)}, vacuum analyze ${s(r.vacuumMs)}`
      : `already loaded at this size: ${r.reports.toLocaleString('en')} reports, ${r.persons.toLocaleString('en')} persons`,
  );
}

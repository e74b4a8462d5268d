/**
 * Demo follow-up of the demo's crisis cases: staff work them as an institution would. Cases
 * opened in the last day are still open (some acknowledged); of the older ones most have
 * follow-up records (phone calls, interviews, home visits, with the risk judged and a next date)
 * and about a third are closed with an outcome; a few wait, acknowledged. Everything goes through
 * the warning actions (acknowledge, assign, follow-up record, close) as the staff member who
 * would do it, at instants of the seeding clock. Deterministic: a seeded generator, no wall clock.
 */
import { asc } from 'drizzle-orm';
import { catalogue, FOLLOWUP_CODE, WARNING_CODE, type ActionInput, type ActionName, type CaseOutcome } from '@xinli/contract';
import { loadConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import { createCtx, type Caller } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { seededRandom } from '../scales/index.js';
import { writeAudit } from '../audit/index.js';
import { warnCase } from './tables.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Who works an institution's cases: its counsellor or doctor where it has one, else the account itself. */
const WORKER: Record<string, string | null> = { I0001: 'U0001', I0002: 'U0101' };

type Act = <N extends ActionName>(name: N, input: ActionInput<N>, at: Date) => Promise<unknown>;

function actorFor(db: Db, handlers: HandlerMap, musercode: string): Act {
  const config = loadConfig();
  const caller: Caller = {
    tokenhash: '',
    musercode,
    userid: WORKER[musercode] ?? null,
    actor: null,
    actoruserid: null,
    musertype: '',
    issuper: false,
    codes: new Set(['00013', WARNING_CODE, FOLLOWUP_CODE]),
    roles: [],
    scope: [musercode],
  };
  return async (name, input, at) => {
    const ctx = createCtx({ db, config, now: () => at, lang: 'zh-CN', ip: '127.0.0.1', requestId: 'demo', action: name, caller, respondent: null, writeAudit });
    const handler = handlers[name] as unknown as (i: unknown, c: typeof ctx) => Promise<unknown>;
    return handler(catalogue[name].input.parse(input), ctx);
  };
}

/** The China calendar date of an instant (follow-up dates are China dates). */
const chinaDate = (t: number) => new Date(t + 8 * HOUR).toISOString().slice(0, 10);

const WAYS = ['phone', 'interview', 'visit', 'online'] as const;
const CONTENT: Record<(typeof WAYS)[number], string[]> = {
  phone: ['电话联系本人，情绪较前平稳，已告知求助热线', '电话联系家属，了解近况并约定面谈时间'],
  interview: ['面谈约40分钟，评估自伤风险，制定安全计划', '面谈复评，睡眠改善，继续每周一次随访'],
  visit: ['上门访视，与家属共同讨论支持方案', '上门访视，居家环境安全，家属知情并配合'],
  online: ['线上沟通，完成复评问卷，结果较前好转', '线上随访，提醒按时复诊'],
};
const OUTCOMES: [CaseOutcome, string][] = [
  ['resolved', '连续随访后风险解除，转入常规关注'],
  ['resolved', '复评结果正常，本人及家属同意结案'],
  ['referred', '已转介精神专科门诊，后续由医院跟进'],
  ['false_alarm', '面谈核实为误选，无自伤意念'],
];

/** Works the demo's cases (after every demo report and task submission has raised its warnings). */
export async function seedDemoFollowUps(db: Db, now: Date, handlers: HandlerMap) {
  const rand = seededRandom(20261125);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const cases = await db
    .select({ caseid: warnCase.caseid, musercode: warnCase.musercode, openedat: warnCase.openedat, level: warnCase.level })
    .from(warnCase)
    .orderBy(asc(warnCase.openedat), asc(warnCase.caseid));
  const end = now.getTime() - HOUR;
  for (const c of cases) {
    const act = actorFor(db, handlers, c.musercode);
    const opened = c.openedat.getTime();
    const age = end - opened;
    const r = rand();
    // The newest cases: just seen, or not yet.
    if (age < DAY) {
      if (r < 0.5)
        await act(
          'as.m.warning.acknowledgeCase',
          { caseid: c.caseid, note: '已知悉，今日联系' },
          new Date(opened + Math.min(age, HOUR) / 2),
        );
      continue;
    }
    if (r < 0.1) continue; // still open: nobody has got to it
    let t = opened + HOUR + Math.floor(rand() * 5 * HOUR);
    await act(
      'as.m.warning.acknowledgeCase',
      { caseid: c.caseid, note: c.level === 'critical' ? '危机个案，立即联系' : '已知悉' },
      new Date(t),
    );
    const worker = WORKER[c.musercode];
    if (worker) await act('as.m.warning.assignCase', { caseid: c.caseid, userid: worker }, new Date(t + 60_000));
    if (r < 0.2) continue; // acknowledged, follow-up planned
    // One to three follow-up records, a few days apart, the risk easing.
    const records = 1 + Math.floor(rand() * 3);
    let risk = c.level === 'critical' ? 3 : 2;
    for (let k = 0; k < records; k++) {
      t += (k === 0 ? 2 * HOUR : 2 * DAY) + Math.floor(rand() * DAY);
      if (t >= end) break;
      const way = k === 0 && c.level === 'critical' ? 'interview' : pick(WAYS);
      const next = t + (3 + Math.floor(rand() * 5)) * DAY;
      await act(
        'as.m.warning.insertFollowUp',
        { caseid: c.caseid, followdate: chinaDate(t), way, content: pick(CONTENT[way]), risk, nextdate: chinaDate(next) },
        new Date(t),
      );
      risk = Math.max(0, risk - (rand() < 0.7 ? 1 : 0));
    }
    // About a third of the older cases are closed, after their records.
    if (r > 0.62 && t + DAY < end) {
      const [outcome, note] = pick(OUTCOMES);
      await act('as.m.warning.closeCase', { caseid: c.caseid, outcome, note }, new Date(t + DAY));
    }
  }
}

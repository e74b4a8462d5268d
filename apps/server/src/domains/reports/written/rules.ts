import { PopulationApp, type RiskLevel, type WrittenSections } from '@xinli/contract';
import { severity, type ProfileForm, type WriterInput } from './profile.js';

/** The rule set's version, recorded as the "model" of every text this writer writes. */
export const RULES_MODEL = 'rules-1';

const RISK_ORDER: RiskLevel[] = ['none', 'low', 'moderate', 'high', 'urgent'];
export const riskRank = (r: RiskLevel) => RISK_ORDER.indexOf(r);

/**
 * The overall risk from the results: a critical answer (PHQ-9 item 9, EPDS item 10 …) is urgent
 * whatever the totals (research notes §2–3); then a warning band or the highest band level.
 */
export function riskOf(input: WriterInput): RiskLevel {
  const warnings = input.forms.flatMap((f) => f.warnings);
  if (warnings.some((w) => w.source === 'critical')) return 'urgent';
  const top = Math.max(0, ...input.forms.flatMap((f) => f.indicators.map((i) => i.level ?? 0)));
  if (warnings.some((w) => w.source === 'band') || top >= 3) return 'high';
  if (top === 2) return 'moderate';
  if (top === 1) return 'low';
  return 'none';
}

type Texts = typeof zh;

/** A form's own text inside a sentence: without its closing full stop, which the sentence adds. */
const clause = (s: string) => s.replace(/[。.！!；;\s]+$/u, '');

const zh = {
  risk: {
    urgent: '紧急：有关键题（如自伤、自杀念头）作答为阳性，需当天进行安全评估并转介。',
    high: '高风险：结果达到重度或预警区间，需尽快面谈评估，考虑转介。',
    moderate: '中等风险：结果为中度，需要心理辅导和定期随访。',
    low: '低风险：结果为轻度，建议自我调适并在下一轮筛查时复查。',
    none: '未见风险：各项结果均在正常范围内，未触发预警。',
  } satisfies Record<RiskLevel, string>,
  summary: (n: number, worst: string | null) =>
    worst ? `共参考 ${n} 份量表结果，最需关注的是${worst}。` : `共参考 ${n} 份量表结果，均在正常范围内。`,
  worst: (f: ProfileForm, label: string) => `${f.form}（${label}）`,
  critical: (f: ProfileForm, item: number | null, reason: string) =>
    `${f.form}（${f.date}）：关键题${item ? `第 ${item} 题` : ''}作答为阳性${reason ? `——${clause(reason)}` : ''}。`,
  bandWarning: (f: ProfileForm, reason: string) => `${f.form}（${f.date}）：结果进入预警区间${reason ? `——${clause(reason)}` : ''}。`,
  result: (f: ProfileForm, name: string, score: number, label: string | null) =>
    `${f.form}（${f.date}）：${name} ${fmt(score)} 分${label ? `，${label}` : ''}。`,
  factor: (f: ProfileForm, name: string, score: number, label: string | null) =>
    `${f.form} 的 ${name}：${fmt(score)} 分${label ? `，${label}` : ''}。`,
  trend: (f: ProfileForm, name: string, from: number, to: number, dir: 'worse' | 'better' | 'same', since: string) =>
    `${f.form} 的 ${name} 与 ${since} 相比：${fmt(from)} → ${fmt(to)} 分，${dir === 'worse' ? '加重' : dir === 'better' ? '好转' : '程度未变'}。`,
  staff: {
    referral: (why: string) => `今天内转介：安排精神科或专业心理卫生机构的紧急评估（${why}）。`,
    safety: '今天联系本人做安全评估：直接询问自伤或自杀的想法、计划和手段，按本机构危机干预预案处置；存在即刻危险时不要让其独处。',
    interview: '一周内安排心理咨询师面谈评估，视情况转介专业机构。',
    counselling: '提供心理辅导，两周内随访一次。',
    reassess: (weeks: string) => `${weeks}后用相同量表复评，比较变化。`,
    selfhelp: '提供自我调适资料，在下一轮常规筛查时复查。',
    routine: '无需额外处置，按常规周期筛查即可。',
    worse: (what: string) => `与本人沟通${what}加重的原因，并记录在随访中。`,
    record: '在预警个案中记录处置和随访情况。',
    population: {
      [PopulationApp.students]: '按学校危机预案通知监护人和班主任，共同制定支持方案。',
      [PopulationApp.maternity]: '通知产科团队，并在 2–4 周内用 EPDS 复筛。',
      [PopulationApp.workingAdults]: '在本人同意下联系员工援助（EAP）或职业健康服务。',
      [PopulationApp.olderAdults]: '联系家属或照护者，关注独居和躯体疾病情况。',
    } as Record<string, string>,
  },
  person: {
    urgent: '感谢你如实作答。你的回答显示你现在可能正经历非常艰难的时刻。你并不孤单，工作人员会尽快与你联系。',
    high: '感谢你认真作答。结果显示你最近承受着较大的困扰，建议尽快和专业人员谈一谈，工作人员会与你联系。',
    moderate: '感谢你认真作答。结果显示你最近有一些困扰，适当的支持和调整会有帮助。',
    low: '感谢你认真作答。结果显示你有轻微的困扰，多数人通过自我调适可以改善。',
    none: '感谢你认真作答。你这次的结果都在正常范围内，请继续保持良好的生活习惯。',
  } satisfies Record<RiskLevel, string>,
  personSteps: {
    crisis: '如果你有伤害自己的想法，请马上告诉身边信任的人，并拨打心理援助热线 12356；紧急情况请拨打 120 或前往最近的医院急诊。',
    talk: '和你信任的人或学校、单位的心理老师谈一谈你的感受。',
    appointment: '按工作人员的安排参加面谈。',
    habits: '保持规律作息、适量运动，和家人朋友保持联系。',
    retest: '按通知参加下一次测评，看看变化。',
  },
};

const en: Texts = {
  risk: {
    urgent:
      'Urgent: a critical item (such as thoughts of self-harm or suicide) was answered positively; a safety assessment and referral are needed today.',
    high: 'High risk: a result is in the severe or warning range; an interview is needed soon, and referral should be considered.',
    moderate: 'Moderate risk: a result is in the moderate range; counselling and regular follow-up are needed.',
    low: 'Low risk: a result is in the mild range; self-help is advised, with a re-check at the next screening round.',
    none: 'No risk found: every result is within the normal range and no warning was raised.',
  },
  summary: (n, worst) =>
    worst
      ? `${n} form result(s) were considered; the one that needs most attention is ${worst}.`
      : `${n} form result(s) were considered, all within the normal range.`,
  worst: (f, label) => `${f.form} (${label})`,
  critical: (f, item, reason) =>
    `${f.form} (${f.date}): critical item${item ? ` ${item}` : ''} answered positively${reason ? ` — ${clause(reason)}` : ''}.`,
  bandWarning: (f, reason) => `${f.form} (${f.date}): the result is in a warning range${reason ? ` — ${clause(reason)}` : ''}.`,
  result: (f, name, score, label) => `${f.form} (${f.date}): ${name} ${fmt(score)}${label ? `, ${label}` : ''}.`,
  factor: (f, name, score, label) => `${f.form}, ${name}: ${fmt(score)}${label ? `, ${label}` : ''}.`,
  trend: (f, name, from, to, dir, since) =>
    `${f.form}, ${name} since ${since}: ${fmt(from)} → ${fmt(to)}, ${dir === 'worse' ? 'worse' : dir === 'better' ? 'better' : 'same level'}.`,
  staff: {
    referral: (why) => `Refer today: arrange an urgent assessment by a psychiatrist or a mental-health service (${why}).`,
    safety:
      'Contact the person today for a safety assessment: ask directly about thoughts, plans and means of self-harm or suicide, and follow the institution’s crisis plan; do not leave a person at immediate risk alone.',
    interview: 'Arrange an interview with a counsellor within a week; refer to a specialist service if needed.',
    counselling: 'Offer counselling and follow up within two weeks.',
    reassess: (weeks) => `Re-assess with the same form in ${weeks} and compare.`,
    selfhelp: 'Give self-help material and re-check at the next routine screening round.',
    routine: 'No action needed beyond routine screening.',
    worse: (what) => `Talk with the person about why ${what} got worse, and record it in the follow-up.`,
    record: 'Record the actions and follow-up in the warning case.',
    population: {
      [PopulationApp.students]:
        'Inform the guardian and the head teacher as the school’s crisis plan requires, and agree a support plan together.',
      [PopulationApp.maternity]: 'Inform the obstetric team and re-screen with the EPDS in 2–4 weeks.',
      [PopulationApp.workingAdults]: 'With the person’s consent, involve the employee assistance programme (EAP) or occupational health.',
      [PopulationApp.olderAdults]: 'Involve family or carers, and pay attention to living alone and physical illness.',
    },
  },
  person: {
    urgent:
      'Thank you for answering honestly. Your answers show you may be going through a very hard time right now. You are not alone: a member of staff will contact you soon.',
    high: 'Thank you for answering carefully. Your results show you have been under considerable strain lately; talking to a professional soon is advised, and a member of staff will contact you.',
    moderate: 'Thank you for answering carefully. Your results show some difficulties lately; support and some changes can help.',
    low: 'Thank you for answering carefully. Your results show mild difficulties, which most people can ease with self-care.',
    none: 'Thank you for answering carefully. Your results this time are all within the normal range; keep up your healthy habits.',
  },
  personSteps: {
    crisis:
      'If you have thoughts of harming yourself, tell someone you trust right away and call the psychological assistance hotline 12356; in an emergency call 120 or go to the nearest emergency department.',
    talk: 'Talk about how you feel with someone you trust, or with the counsellor at your school or workplace.',
    appointment: 'Go to the interview staff arrange with you.',
    habits: 'Keep regular sleep, some exercise, and contact with family and friends.',
    retest: 'Take the next assessment when invited, to see how things change.',
  },
};

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/0+$/, '');
}

/** The indicator that speaks for a form: its worst-banded total, else its worst indicator. */
function headline(f: ProfileForm) {
  const totals = f.indicators.filter((i) => i.kind === 'total');
  const pool = totals.length ? totals : f.indicators;
  return [...pool].sort((a, b) => (b.level ?? -1) - (a.level ?? -1))[0] ?? null;
}

/**
 * The rule-based writer: deterministic text from the bands, their interpretations and advice, the
 * trends and the warnings. It states what the results say and nothing more: a normal sheet gets a
 * normal report. Risk comes first in the summary; an urgent risk always puts a referral first among
 * the staff steps.
 */
export function writeByRules(input: WriterInput): WrittenSections {
  const t = input.lang === 'en-US' ? en : zh;
  const risk = riskOf(input);
  const forms = [...input.forms].sort((a, b) => severity(b) - severity(a));

  const findings: string[] = [];
  for (const f of forms) for (const w of f.warnings.filter((x) => x.source === 'critical')) findings.push(t.critical(f, w.item, w.reason));
  for (const f of forms) {
    const head = headline(f);
    if (head)
      findings.push(t.result(f, head.name, head.score, head.label) + (head.level && head.interpretation ? ` ${head.interpretation}` : ''));
    for (const i of f.indicators) if (i !== head && (i.level ?? 0) >= 2) findings.push(t.factor(f, i.name, i.score, i.label));
    for (const w of f.warnings.filter((x) => x.source === 'band')) findings.push(t.bandWarning(f, w.reason));
    for (const c of f.trend?.changes ?? [])
      if (c.direction !== 'same' || c.name === head?.name)
        findings.push(t.trend(f, c.name, c.from, c.to, c.direction, f.trend!.previousdate));
  }

  const top = forms[0];
  const topHead = top ? headline(top) : null;
  const worst = risk !== 'none' && top && topHead ? t.worst(top, topHead.label ?? `${topHead.name} ${fmt(topHead.score)}`) : null;
  const summary = `${t.risk[risk]}${t.summary(forms.length, worst)}`;

  const worse = forms.flatMap((f) => (f.trend?.changes ?? []).filter((c) => c.direction === 'worse').map((c) => `${f.form} ${c.name}`));
  const population = t.staff.population[input.profile.populationapp];
  const staffsteps: string[] = [];
  if (risk === 'urgent') {
    const critical = forms.flatMap((f) =>
      f.warnings
        .filter((w) => w.source === 'critical')
        .map((w) =>
          w.item ? `${f.form} ${input.lang === 'en-US' ? 'item' : '第'} ${w.item}${input.lang === 'en-US' ? '' : ' 题'}` : f.form,
        ),
    );
    staffsteps.push(t.staff.referral(critical.join(input.lang === 'en-US' ? ', ' : '、')), t.staff.safety);
    if (population) staffsteps.push(population);
    staffsteps.push(t.staff.record, t.staff.reassess(input.lang === 'en-US' ? '2 weeks' : '2 周'));
  } else if (risk === 'high') {
    staffsteps.push(t.staff.interview);
    if (population) staffsteps.push(population);
    staffsteps.push(t.staff.reassess(input.lang === 'en-US' ? '2–4 weeks' : '2–4 周'));
  } else if (risk === 'moderate') {
    staffsteps.push(t.staff.counselling, t.staff.reassess(input.lang === 'en-US' ? '2–4 weeks' : '2–4 周'));
  } else if (risk === 'low') {
    staffsteps.push(t.staff.selfhelp);
  } else {
    staffsteps.push(t.staff.routine);
  }
  if (worse.length) staffsteps.push(t.staff.worse(worse.join(input.lang === 'en-US' ? ', ' : '、')));

  const personsteps: string[] = [];
  if (risk === 'urgent') personsteps.push(t.personSteps.crisis);
  if (riskRank(risk) >= riskRank('high')) personsteps.push(t.personSteps.appointment);
  if (riskRank(risk) >= riskRank('low')) personsteps.push(t.personSteps.talk);
  // The bands' own advice (written with the form) for results that are not normal, once each.
  for (const f of forms)
    for (const i of f.indicators) if ((i.level ?? 0) >= 1 && i.advice && !personsteps.includes(i.advice)) personsteps.push(i.advice);
  personsteps.push(t.personSteps.habits);
  if (risk !== 'none') personsteps.push(t.personSteps.retest);

  return {
    summary: clip(summary, 2000),
    findings: findings.slice(0, 30).map((s) => clip(s, 2000)),
    risk: { level: risk, text: t.risk[risk] },
    staffsteps: staffsteps.slice(0, 20).map((s) => clip(s, 500)),
    personmessage: t.person[risk],
    personsteps: personsteps.slice(0, 20).map((s) => clip(s, 500)),
  };
}

function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

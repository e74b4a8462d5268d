import {
  enumLabel,
  Gender,
  INSTITUTION_TIME_ZONE,
  zoneLabel,
  LevelColours,
  levelWord,
  MentalState,
  Phq9Level,
  type Lang,
  type LocalText,
} from '@xinli/contract';
import { chinaTime, CSS, esc, PAGE_NUMBER_CSS } from '../../../kit/print.js';
import { indicatorChart, levelChart, trendChart } from './charts.js';
import type { DocumentModel } from './model.js';
import { normSection } from './norm-section.js';

/**
 * The printable report: one self-contained HTML document (inline CSS and SVG, no script, no
 * external resource) for both the console's browser printing and the server's PDFs.
 *
 * Print rules: A4 with 16 mm margins; the report's parts (result, trend and history, answers)
 * each start on a new page; no table row, indicator block or chart is split across pages, table
 * headers repeat on each page, and headings stay with what follows. Comments follow the answers
 * without a page of their own. Every text from the database is escaped (names, comments and form
 * texts are user input).
 */

/** Only an inline image may be the logo: the document loads nothing from the network. */
export const safeLogo = (logo: string | null) =>
  logo && /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/=]+$/.test(logo) ? logo : null;
export const safeColour = (c: string | null | undefined, level: number | null) =>
  c && /^#[0-9a-fA-F]{6}$/.test(c) ? c : level !== null && level >= 0 && level <= 4 ? LevelColours[level] : '#9ca3af';

const WORDS = {
  title: ['心理测评报告', 'Psychological Assessment Report'],
  basics: ['基本信息', 'Basic information'],
  realname: ['姓名', 'Name'],
  gender: ['性别', 'Gender'],
  age: ['年龄', 'Age'],
  ageValue: ['{n} 岁', '{n} years'],
  unknown: ['未填写', 'Not given'],
  form: ['量表', 'Form'],
  version: ['版本', 'Version'],
  date: ['测评时间', 'Assessed at'],
  institution: ['机构', 'Institution'],
  plan: ['测评方案', 'Plan'],
  stage: ['阶段', 'Stage'],
  reportid: ['报告编号', 'Report no.'],
  result: ['测评结果', 'Result'],
  mentalstate: ['总体心理状态', 'Overall mental state'],
  warning: ['预警', 'Warning'],
  warningYes: ['有预警，请及时关注', 'Warning raised: follow up promptly'],
  warningNo: ['无预警', 'No warning'],
  warnings: ['预警原因', 'Warning reasons'],
  voided: ['本报告已作废', 'This report is void'],
  indicators: ['各项指标', 'Indicators'],
  indicator: ['指标', 'Indicator'],
  score: ['得分', 'Score'],
  band: ['结果', 'Result'],
  level: ['等级', 'Level'],
  interpretation: ['结果解释', 'Interpretation'],
  advice: ['建议', 'Advice'],
  noBand: ['未分级', 'No band'],
  convention: ['计分约定', 'Scoring convention'],
  source: ['来源', 'Source'],
  trend: ['历次结果趋势', 'Trend of results'],
  trendNone: ['这是该受测者此量表的第一次结果，暂无趋势。', "This is the person's first result of this form; there is no trend yet."],
  trendDate: ['日期', 'Date'],
  phq9: ['PHQ-9 抑郁程度与第 9 题历史', 'PHQ-9 depression level and item 9 history'],
  phq9Level: ['抑郁程度（0-4 级）', 'Depression level (0-4)'],
  item9: ['第 9 题（自伤念头，0-3 分）', 'Item 9 (thoughts of self-harm, 0-3)'],
  item9Note: [
    '第 9 题得分大于 0 表示有自伤或死亡念头，无论总分高低均需专业人员及时评估。',
    'An item 9 score above 0 means thoughts of death or self-harm: a professional should assess the person promptly, whatever the total.',
  ],
  answers: ['作答明细', 'Answers'],
  no: ['题号', 'No.'],
  question: ['题目', 'Question'],
  answer: ['作答', 'Answer'],
  notAnswered: ['未作答', 'Not answered'],
  comments: ['工作人员意见', 'Staff comments'],
  commentsNone: ['暂无意见。', 'No comments yet.'],
  printedat: ['打印时间', 'Printed at'],
  confidential: [
    '本报告含个人隐私信息，仅供本机构工作人员使用，请妥善保管。',
    "Confidential: personal data for this institution's staff only. Keep it safe.",
  ],
} satisfies Record<string, [string, string]>;

export type Word = keyof typeof WORDS;

export function wordsOf(lang: Lang) {
  const i = lang === 'en-US' ? 1 : 0;
  const w = (key: Word, vars: Record<string, string | number> = {}) =>
    WORDS[key][i].replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''));
  const local = (x: LocalText | null | undefined) => (x ? (lang === 'en-US' && x.en ? x.en : x.zh) : '');
  return { w, local };
}

/** A time with its zone ("2026-11-20 10:00 (UTC+8)"), where a reader elsewhere could misread it. */
export const zoned = (isoInstant: string) => `${chinaTime(isoInstant)} (${zoneLabel(INSTITUTION_TIME_ZONE)})`;

export interface RenderOptions {
  /** 'css': page numbers from @page margin boxes (browser print); 'none': the PDF footer draws them. */
  pageNumbers?: 'css' | 'none';
}

export function renderReportDocument(m: DocumentModel, opts: RenderOptions = {}): string {
  const { w } = wordsOf(m.lang);
  const parts = [masthead(m), basics(m), result(m), normsOfReport(m), trend(m), phq9(m), answers(m), comments(m)];
  return documentShell(m, `${m.report.formname} · ${w('title')}`, parts.join('\n'), opts);
}

/** The report against its form's norm and the last reliable change (issue 31 §2, §3); empty without a norm. */
export const normsOfReport = (m: DocumentModel) => normSection(m.report.norm ?? null, m.report.trend.at(-1)?.change ?? null, m.lang);

/** The HTML page around the parts: language, title, the print CSS (with or without CSS page numbers). */
export function documentShell(m: DocumentModel, title: string, body: string, opts: RenderOptions): string {
  return `<!DOCTYPE html>
<html lang="${m.lang === 'en-US' ? 'en' : 'zh-CN'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(`${m.person.realname} - ${title}`)}</title>
<style>${CSS}${opts.pageNumbers === 'none' ? '' : PAGE_NUMBER_CSS}</style>
</head>
<body>
<div class="doc">
${body}
</div>
</body>
</html>
`;
}

/** The header, and the confidentiality line under it (at the end it could fall alone on a last page). */
export function masthead(m: DocumentModel): string {
  const { w } = wordsOf(m.lang);
  const logo = safeLogo(m.institution.logo);
  return `<header class="masthead">
${logo ? `<img src="${esc(logo)}" alt="">` : ''}
<div class="titles"><div class="ins">${esc(m.institution.name)}</div><h1>${esc(w('title'))}</h1><div class="sub">${esc(m.report.formname)}</div></div>
<div class="right">${esc(w('reportid'))}: ${esc(m.report.reportid)}<br>${esc(w('printedat'))}: ${esc(zoned(m.printedat))}</div>
</header>
<p class="note">${esc(w('confidential'))}</p>`;
}

export function basics(m: DocumentModel): string {
  const { w } = wordsOf(m.lang);
  const r = m.report;
  const gender = m.person.gender ? enumLabel(Gender, m.person.gender, m.lang) : w('unknown');
  const age = m.person.age !== null ? w('ageValue', { n: m.person.age }) : w('unknown');
  const row = (a: Word, av: string, b: Word, bv: string) =>
    `<tr><th>${esc(w(a))}</th><td>${esc(av)}</td><th>${esc(w(b))}</th><td>${esc(bv)}</td></tr>`;
  return `<section class="section">
<h2>${esc(w('basics'))}</h2>
<table class="info">
${row('realname', m.person.realname, 'gender', gender)}
${row('age', age, 'institution', r.insname)}
${row('form', r.formname, 'version', `v${r.version}`)}
${row('plan', [r.planname, r.stagename].filter(Boolean).join(' / ') || '—', 'date', zoned(r.createdat))}
</table>
</section>`;
}

export function levelChip(level: number | null, colour: string | null, text: string): string {
  return `<span class="chip" style="background:${esc(safeColour(colour, level))}">${esc(text)}</span>`;
}

/** The scoring convention the report was scored with and its source (issue 31 §1), when the form offers several. */
function conventionLine(m: DocumentModel): string {
  const c = m.report.convention;
  if (!c) return '';
  const { w, local } = wordsOf(m.lang);
  const en = m.lang === 'en-US';
  const colon = en ? ': ' : '：';
  const source = c.source ? (en ? ` (${w('source')}: ${c.source})` : `（${w('source')}：${c.source}）`) : '';
  return `<p class="muted" data-part="convention">${esc(w('convention'))}${colon}${esc(local(c.name))}${esc(source)}</p>`;
}

function result(m: DocumentModel): string {
  const { w } = wordsOf(m.lang);
  return `<section class="section">
<h2>${esc(w('result'))}</h2>
${resultState(m)}
${indicatorTable(m)}
${indicatorBlocks(m, true)}
</section>`;
}

/** The void notice, the overall state, the warning and its reasons. */
export function resultState(m: DocumentModel): string {
  const { w, local } = wordsOf(m.lang);
  const colon = m.lang === 'en-US' ? ': ' : '：';
  const r = m.report;
  const state = enumLabel(MentalState, r.mentalstate, m.lang);
  const warnings = r.warnings.length
    ? `<div class="alert keep"><strong>${esc(w('warnings'))}</strong><ul>${r.warnings.map((x) => `<li>${esc(local(x.reason))}</li>`).join('')}</ul></div>`
    : '';
  return `${r.voided ? `<div class="void">${esc(w('voided'))}${r.voidreason ? `${colon}${esc(local(r.voidreason))}` : ''}</div>` : ''}
<div class="state keep"><div><span class="label">${esc(w('mentalstate'))}</span><div class="big">${esc(state)}</div></div>
<div><span class="label">${esc(w('warning'))}</span><div class="big">${r.warning ? levelChip(4, null, w('warningYes')) : esc(w('warningNo'))}</div></div></div>
${warnings}`;
}

/** Each indicator's score, band and level, and the bar chart when there are several; `heading` false under a section of its own. */
export function indicatorTable(m: DocumentModel, heading = true): string {
  const { w, local } = wordsOf(m.lang);
  const r = m.report;
  const bars = r.indicators.map((i) => ({ name: local(i.name), score: i.score, colour: safeColour(i.colour, i.level) }));
  const rows = r.indicators
    .map(
      (i) =>
        `<tr><td><span class="dot" style="background:${esc(safeColour(i.colour, i.level))}"></span>${esc(local(i.name))}</td><td class="num">${esc(i.score)}</td><td>${esc(local(i.label) || w('noBand'))}</td><td class="num">${
          i.level === null ? '—' : levelChip(i.level, i.colour, levelWord(i.level, m.lang))
        }</td></tr>`,
    )
    .join('\n');
  return `${heading ? `<h3>${esc(w('indicators'))}</h3>` : ''}
<table class="indicators">
<thead><tr><th>${esc(w('indicator'))}</th><th class="num">${esc(w('score'))}</th><th>${esc(w('band'))}</th><th class="num">${esc(w('level'))}</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
${conventionLine(m)}
${bars.length > 1 ? `<div class="chart">${indicatorChart(bars)}</div>` : ''}`;
}

/** Each indicator's interpretation and, with `advice`, its advice (the custom report may show advice apart). */
export function indicatorBlocks(m: DocumentModel, advice: boolean): string {
  const { w, local } = wordsOf(m.lang);
  const colon = m.lang === 'en-US' ? ': ' : '：';
  const shown = (i: DocumentModel['report']['indicators'][number]) => local(i.interpretation) || (advice && local(i.advice));
  return m.report.indicators
    .filter(shown)
    .map(
      (i) => `<div class="ind" style="border-left-color:${esc(safeColour(i.colour, i.level))}">
<div class="head"><span>${esc(local(i.name))}</span><span>${esc(i.score)} · ${esc(local(i.label) || w('noBand'))}</span></div>
${local(i.interpretation) ? `<p><span class="label">${esc(w('interpretation'))}${colon}</span>${esc(local(i.interpretation))}</p>` : ''}
${advice && local(i.advice) ? `<p><span class="label">${esc(w('advice'))}${colon}</span>${esc(local(i.advice))}</p>` : ''}
</div>`,
    )
    .join('\n');
}

export function trend(m: DocumentModel): string {
  const { w } = wordsOf(m.lang);
  if (m.trend.length < 2)
    return `<section class="section"><h2>${esc(w('trend'))}</h2><p class="muted">${esc(w('trendNone'))}</p></section>`;
  const dates = m.trend.map((t) => chinaTime(t.createdat, false));
  // Indicators in the order of this report; an earlier version may lack one (a gap in its line).
  const names = new Map<string, string>();
  for (const t of m.trend) for (const i of t.indicators) if (!names.has(i.code)) names.set(i.code, i.name);
  const order = [...m.report.indicators.map((i) => i.code), ...names.keys()].filter((c, k, all) => all.indexOf(c) === k && names.has(c));
  const series = order.map((code) => ({
    name: names.get(code)!,
    values: m.trend.map((t) => t.indicators.find((i) => i.code === code)?.score ?? null),
  }));
  const head = `<tr><th>${esc(w('trendDate'))}</th>${order.map((c) => `<th class="num">${esc(names.get(c))}</th>`).join('')}<th>${esc(w('mentalstate'))}</th></tr>`;
  const body = m.trend
    .map((t, k) => {
      const cells = order
        .map((c) => {
          const i = t.indicators.find((x) => x.code === c);
          return `<td class="num">${i ? `<span class="dot" style="background:${esc(safeColour(i.colour, i.level))}"></span>${esc(i.score)}` : '—'}</td>`;
        })
        .join('');
      const current = t.reportid === m.report.reportid ? ' style="font-weight:700"' : '';
      return `<tr${current}><td>${esc(dates[k])}</td>${cells}<td>${esc(enumLabel(MentalState, t.mentalstate, m.lang))}</td></tr>`;
    })
    .join('\n');
  // Many indicators (SCL-90 has ten): the chart keeps at most eight lines to stay legible; the table has them all.
  return `<section class="section new-page">
<h2>${esc(w('trend'))}</h2>
<div class="chart">${trendChart(dates, series.slice(0, 8))}</div>
<table class="trend"><thead>${head}</thead><tbody>
${body}
</tbody></table>
</section>`;
}

export function phq9(m: DocumentModel): string {
  const { w } = wordsOf(m.lang);
  if (!m.phq9?.length) return '';
  const dates = m.phq9.map((p) => chinaTime(p.createdat, false));
  const rows = m.phq9
    .map(
      (p, k) =>
        `<tr${p.reportid === m.report.reportid ? ' style="font-weight:700"' : ''}><td>${esc(dates[k])}</td><td class="num">${esc(p.score ?? '—')}</td><td>${
          p.level === null ? '—' : levelChip(p.level, null, enumLabel(Phq9Level, p.level, m.lang))
        }</td><td class="num">${p.item9 === null ? '—' : levelChip(Math.round((p.item9 * 4) / 3), null, String(p.item9))}</td></tr>`,
    )
    .join('\n');
  const separate = m.trend.length < 2 ? ' new-page' : '';
  return `<section class="section${separate}">
<h2>${esc(w('phq9'))}</h2>
<div class="chart keep"><h3>${esc(w('phq9Level'))}</h3>${levelChart(
    dates,
    m.phq9.map((p) => p.level),
    4,
    Phq9Level.map((l) => enumLabel(Phq9Level, l.value, m.lang)),
  )}</div>
<div class="chart keep"><h3>${esc(w('item9'))}</h3>${levelChart(
    dates,
    m.phq9.map((p) => p.item9),
    3,
    null,
    680,
    130,
  )}</div>
<table class="phq9"><thead><tr><th>${esc(w('trendDate'))}</th><th class="num">${esc(w('score'))}</th><th>${esc(w('phq9Level'))}</th><th class="num">${esc(w('item9'))}</th></tr></thead><tbody>
${rows}
</tbody></table>
<p class="muted">${esc(w('item9Note'))}</p>
</section>`;
}

export function answers(m: DocumentModel): string {
  const { w, local } = wordsOf(m.lang);
  const rows = m.report.answers
    .map(
      (a) =>
        `<tr><td class="num">${esc(a.no)}</td><td>${esc(local(a.question))}</td><td>${a.answer ? esc(a.answer) : `<span class="muted">${esc(w('notAnswered'))}</span>`}</td><td class="num">${esc(a.score ?? '—')}</td></tr>`,
    )
    .join('\n');
  return `<section class="section new-page">
<h2>${esc(w('answers'))}</h2>
<table class="answers">
<thead><tr><th class="num">${esc(w('no'))}</th><th style="width:52%">${esc(w('question'))}</th><th>${esc(w('answer'))}</th><th class="num">${esc(w('score'))}</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</section>`;
}

export function comments(m: DocumentModel): string {
  const { w } = wordsOf(m.lang);
  const list = m.comments.length
    ? m.comments
        .map((c) => `<div class="comment"><div class="by">${esc(c.author)} · ${esc(chinaTime(c.createdat))}</div>${esc(c.text)}</div>`)
        .join('\n')
    : `<p class="muted">${esc(w('commentsNone'))}</p>`;
  return `<section class="section">
<h2>${esc(w('comments'))}</h2>
${list}
</section>`;
}

/** Chromium's PDF footer: institution, page x / y (the template is Chromium's, styled inline). */
export function pdfFooter(m: DocumentModel): string {
  const { w } = wordsOf(m.lang);
  return `<div style="width:100%;font-size:8px;color:#6b7280;padding:0 14mm;display:flex;justify-content:space-between;font-family:'Noto Sans CJK SC','WenQuanYi Micro Hei',sans-serif">
<span>${esc(m.institution.name)} · ${esc(m.person.realname)} · ${esc(w('title'))}</span><span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>`;
}

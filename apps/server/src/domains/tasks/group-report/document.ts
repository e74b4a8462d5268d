import { BandLevel, type GroupCompareRow, type GroupReport, type GroupSummarySections, type Lang } from '@xinli/contract';
import { levelStackChart, chinaTime, CSS, esc, PAGE_NUMBER_CSS } from '../../reports/index.js';

/**
 * The printable group report: one self-contained HTML document (the printable individual report's
 * CSS and escaping, charts as inline SVG drawn on the server) for the console's print and the
 * server's PDF. Names in the attention list are masked as on the page. The written summary is
 * printed only once approved.
 */

const WORDS = {
  title: ['团体心理测评报告', 'Group Assessment Report'],
  task: ['测评任务', 'Task'],
  team: ['团体', 'Team'],
  allTeams: ['全部团体', 'All teams'],
  window: ['测评时间', 'Window'],
  printedat: ['打印时间', 'Printed at'],
  participation: ['参与情况', 'Participation'],
  members: ['应测人数', 'To take part'],
  finished: ['已完成', 'Finished'],
  started: ['进行中', 'In progress'],
  notstarted: ['未开始', 'Not started'],
  rate: ['完成率', 'Completion'],
  summary: ['报告摘要', 'Summary'],
  steps: ['建议', 'Recommended steps'],
  distribution: ['各指标等级分布', 'Levels per indicator'],
  indicator: ['指标', 'Indicator'],
  total: ['人数', 'Persons'],
  mean: ['均分', 'Mean'],
  classes: ['班级对比', 'Classes compared'],
  grades: ['年级对比', 'Grades compared'],
  warned: ['预警', 'Warned'],
  trend: ['与上次测评对比', 'Compared with the previous task'],
  severe: ['中重度占比', 'Levels 3–4'],
  noPrevious: ['这些团体此前没有测评任务。', 'These teams had no earlier task.'],
  attention: ['需关注人员', 'Persons needing attention'],
  name: ['姓名', 'Name'],
  form: ['量表', 'Form'],
  level: ['等级', 'Level'],
  yes: ['是', 'Yes'],
  noAttention: ['没有需关注的人员。', 'Nobody needs attention.'],
  noResults: ['暂无已完成的测评结果。', 'No finished results yet.'],
  confidential: ['本报告含个人信息（姓名已脱敏），仅供本机构工作人员使用。', 'Confidential (names masked): for this institution’s staff only.'],
} satisfies Record<string, [string, string]>;


const pct = (n: number, of: number) => (of ? `${Math.round((n * 1000) / of) / 10}%` : '—');

/** pageNumbers: from @page margin boxes (browser print); off for the PDF, whose footer draws them. */
export function renderGroupDocument(r: GroupReport, summary: GroupSummarySections | null, lang: Lang, printedat: string, pageNumbers = true): string {
  const i = lang === 'en-US' ? 1 : 0;
  const w = (k: keyof typeof WORDS) => esc(WORDS[k][i]);
  const levelNames = BandLevel.map((l) => (i ? l.en : l.zh));
  const team = r.teamid ? (r.teams.find((t) => t.teamid === r.teamid)?.teamname ?? '') : WORDS.allTeams[i];
  const p = r.participation;
  const levelCells = (levels: number[], of: number) => levels.map((n) => `<td class="num">${n} <span class="muted">${pct(n, of)}</span></td>`).join('');
  const levelHead = levelNames.map((n) => `<th class="num">${esc(n)}</th>`).join('');
  const compareTable = (rows: GroupCompareRow[]) => `<table><thead><tr><th>${w('team')}</th><th class="num">${w('members')}</th><th class="num">${w(
    'rate',
  )}</th>${levelHead}<th class="num">${w('warned')}</th></tr></thead><tbody>
${rows.map((c) => `<tr><td>${esc(c.name)}</td><td class="num">${c.members}</td><td class="num">${c.rate}%</td>${levelCells(c.levels, c.finished)}<td class="num">${c.warned}</td></tr>`).join('\n')}
</tbody></table>`;
  const severe = (l: number[], of: number) => pct(l[3]! + l[4]!, of);

  const indicators = r.indicators.length
    ? `<div class="chart">${levelStackChart(
        r.indicators.map((x) => `${x.formname} · ${x.name}`),
        r.indicators.map((x) => x.levels),
        levelNames,
      )}</div>
<table><thead><tr><th>${w('indicator')}</th><th class="num">${w('total')}</th><th class="num">${w('mean')}</th>${levelHead}</tr></thead><tbody>
${r.indicators.map((x) => `<tr><td>${esc(x.formname)} · ${esc(x.name)}</td><td class="num">${x.total}</td><td class="num">${x.mean}${x.norm ? `<br><span class="muted">${esc(normNote(x.norm))}</span>` : ''}</td>${levelCells(x.levels, x.total)}</tr>`).join('\n')}
</tbody></table>`
    : `<p class="muted">${w('noResults')}</p>`;

  const trend = r.previous
    ? `<p>${w('task')}: ${esc(r.previous.taskname)} (${esc(chinaTime(r.previous.endtime, false))}) · ${w('rate')} ${r.previous.participation.rate}% → ${p.rate}%</p>
<table><thead><tr><th>${w('indicator')}</th><th class="num">${w('mean')}</th><th class="num">${w('severe')}</th></tr></thead><tbody>
${r.indicators
  .map((x) => {
    const b = r.previous!.indicators.find((y) => y.formcode === x.formcode && y.code === x.code);
    return `<tr><td>${esc(x.formname)} · ${esc(x.name)}</td><td class="num">${b ? `${b.mean} → ` : ''}${x.mean}</td><td class="num">${b ? `${severe(b.levels, b.total)} → ` : ''}${severe(x.levels, x.total)}</td></tr>`;
  })
  .join('\n')}
</tbody></table>`
    : `<p class="muted">${w('noPrevious')}</p>`;

  const attention = r.attention.length
    ? `<table><thead><tr><th>${w('name')}</th><th>${w('team')}</th><th>${w('form')}</th><th class="num">${w('level')}</th><th class="num">${w('warned')}</th></tr></thead><tbody>
${r.attention.map((a) => `<tr><td>${esc(a.realname)}</td><td>${esc(a.teamname)}</td><td>${esc(a.formname)}</td><td class="num">${esc(levelNames[a.level] ?? a.level)}</td><td class="num">${a.warning ? w('yes') : '—'}</td></tr>`).join('\n')}
</tbody></table>`
    : `<p class="muted">${w('noAttention')}</p>`;

  const written = summary
    ? `<section class="section"><h2>${w('summary')}</h2><p>${esc(summary.summary)}</p><ul>${summary.findings.map((f) => `<li>${esc(f)}</li>`).join('')}</ul>
<h3>${w('steps')}</h3><ol>${summary.steps.map((s) => `<li>${esc(s)}</li>`).join('')}</ol></section>`
    : '';

  return `<!DOCTYPE html>
<html lang="${lang === 'en-US' ? 'en' : 'zh-CN'}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(`${r.task.taskname} - ${WORDS.title[i]}`)}</title>
<style>${CSS}${pageNumbers ? PAGE_NUMBER_CSS : ''}</style></head>
<body><div class="doc">
<header class="masthead"><div class="titles"><div class="ins">${esc(r.task.insname)}</div><h1>${w('title')}</h1><div class="sub">${esc(r.task.taskname)} · ${esc(team)}</div></div>
<div class="right">${w('window')}: ${esc(chinaTime(r.task.starttime, false))} – ${esc(chinaTime(r.task.endtime, false))}<br>${w('printedat')}: ${esc(chinaTime(printedat))}</div></header>
<p class="note">${w('confidential')}</p>
<section class="section"><h2>${w('participation')}</h2>
<table class="info"><tr><th>${w('members')}</th><td>${p.members}</td><th>${w('finished')}</th><td>${p.finished} (${p.rate}%)</td></tr>
<tr><th>${w('started')}</th><td>${p.started}</td><th>${w('notstarted')}</th><td>${p.notstarted}</td></tr></table></section>
${written}
<section class="section"><h2>${w('distribution')}</h2>${indicators}</section>
${r.byteam.length > 1 ? `<section class="section"><h2>${w('classes')}</h2><div class="chart">${levelStackChart(r.byteam.map((c) => c.name), r.byteam.map((c) => c.levels), levelNames)}</div>${compareTable(r.byteam)}</section>` : ''}
${r.bygrade.length > 1 ? `<section class="section"><h2>${w('grades')}</h2>${compareTable(r.bygrade)}</section>` : ''}
<section class="section"><h2>${w('trend')}</h2>${trend}</section>
<section class="section new-page"><h2>${w('attention')}</h2>${attention}</section>
</div></body></html>
`;
}

/** Chromium's PDF footer: the institution, the task and page x / y. */
export function groupPdfFooter(r: GroupReport, lang: Lang): string {
  return `<div style="width:100%;font-size:8px;color:#6b7280;padding:0 14mm;display:flex;justify-content:space-between;font-family:'Noto Sans CJK SC','WenQuanYi Micro Hei',sans-serif">
<span>${esc(r.task.insname)} · ${esc(r.task.taskname)} · ${esc(WORDS.title[lang === 'en-US' ? 1 : 0])}</span><span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>`;
}

/** A group mean's norm beside it (issue 31 §2): the norm's mean ± SD and the mean's z, in notation both languages read. */
const normNote = (n: { mean: number; sd: number; z: number }) => `M₀ ${n.mean} ± ${n.sd} · z ${n.z.toFixed(2)}`;

import type { ReportSection } from '@xinli/contract';
import { esc } from '../../../kit/print.js';
import type { DocumentModel } from './model.js';
import {
  answers,
  basics,
  comments,
  documentShell,
  indicatorBlocks,
  indicatorTable,
  normsOfReport,
  phq9,
  renderReportDocument,
  resultState,
  safeLogo,
  trend,
  wordsOf,
  zoned,
  type RenderOptions,
} from './template.js';

/**
 * The custom report (issue 31 §4): the printable document as a template version lays it out, its
 * sections in the template's order, built from the standard document's parts so that both print
 * alike (A4, page breaks, escaping). A model without a layout is the standard report.
 */

const WORDS = {
  summary: ['概要', 'Summary'],
  indicators: ['各项指标', 'Indicators'],
  norms: ['常模比较', 'Comparison with norms'],
  normsNone: ['此量表暂无可比较的常模数据。', 'No norm data is available for this form.'],
  advice: ['建议', 'Advice'],
  adviceNone: ['暂无建议。', 'No advice.'],
  signoff: ['签名', 'Sign-off'],
  signer: ['评估人签名：＿＿＿＿＿＿＿＿', 'Assessor’s signature: ____________'],
  signdate: ['日期：＿＿＿＿年＿＿月＿＿日', 'Date: ____________'],
  template: ['报告模板：{name}（第 {version} 版）', 'Report template: {name} (version {version})'],
} satisfies Record<string, [string, string]>;

function words(m: DocumentModel) {
  const i = m.lang === 'en-US' ? 1 : 0;
  return (key: keyof typeof WORDS, vars: Record<string, string | number> = {}) =>
    WORDS[key][i].replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''));
}

const section = (title: string, body: string, extra = '') => `<section class="section${extra}">
<h2>${esc(title)}</h2>
${body}
</section>`;

const SECTIONS: Record<ReportSection, (m: DocumentModel) => string> = {
  summary: (m) => `${basics(m)}
${section(words(m)('summary'), resultState(m))}`,
  indicators: (m) => section(words(m)('indicators'), `${indicatorTable(m, false)}\n${indicatorBlocks(m, false)}`),
  // The standard document's norm comparison and reliable change (norm-section.ts), or a neutral line.
  norms: (m) => normsOfReport(m) || section(words(m)('norms'), `<p class="muted">${esc(words(m)('normsNone'))}</p>`),
  trend: (m) => `${trend(m)}\n${phq9(m)}`,
  answers,
  advice: (m) => {
    const w = words(m);
    const { local } = wordsOf(m.lang);
    const items = m.report.indicators.filter((i) => local(i.advice));
    const body = items.length
      ? `<ul>${items.map((i) => `<li><strong>${esc(local(i.name))}</strong>${m.lang === 'en-US' ? ': ' : '：'}${esc(local(i.advice))}</li>`).join('')}</ul>`
      : `<p class="muted">${esc(w('adviceNone'))}</p>`;
    return section(w('advice'), body);
  },
  comments,
  signoff: (m) => {
    const w = words(m);
    const l = m.layout!;
    return section(
      w('signoff'),
      `<div class="keep"><p>${esc(l.signoff || w('signer'))}</p><p>${esc(w('signdate'))}</p>
<p class="muted">${esc(w('template', { name: l.name, version: l.version }))}</p></div>`,
    );
  },
};

/** The header with the template's title (the institution's name and logo are the model's, set from the template). */
function masthead(m: DocumentModel, title: string): string {
  const { w } = wordsOf(m.lang);
  const logo = safeLogo(m.institution.logo);
  return `<header class="masthead">
${logo ? `<img src="${esc(logo)}" alt="">` : ''}
<div class="titles"><div class="ins">${esc(m.institution.name)}</div><h1>${esc(title)}</h1><div class="sub">${esc(m.report.formname)}</div></div>
<div class="right">${esc(w('reportid'))}: ${esc(m.report.reportid)}<br>${esc(w('printedat'))}: ${esc(zoned(m.printedat))}</div>
</header>
<p class="note">${esc(w('confidential'))}</p>`;
}

/** The document of a model: the template's layout when it has one, else the standard report. */
export function renderDocument(m: DocumentModel, opts: RenderOptions = {}): string {
  if (!m.layout) return renderReportDocument(m, opts);
  const { w } = wordsOf(m.lang);
  const title = m.layout.title || w('title');
  const parts = [masthead(m, title), ...m.layout.sections.map((s) => SECTIONS[s](m))];
  return documentShell(m, `${m.report.formname} · ${title}`, parts.join('\n'), opts);
}

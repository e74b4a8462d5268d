import type { Lang, ReliableChange, ReportNorm } from '@xinli/contract';
import { esc } from '../../../kit/print.js';

/**
 * The printed report's norm comparison and reliable change (issue 31 §2 and §3): each factor's z
 * and T score with a bar against the norm band (mean ± 1 SD), the change from the previous report
 * of the form, and the sources in a footnote. Pure, like template.ts, which places it after the result.
 */

const WORDS = {
  heading: ['常模比较', 'Against the norm'],
  indicator: ['指标', 'Indicator'],
  score: ['得分', 'Score'],
  norm: ['常模 M ± SD', 'Norm M ± SD'],
  z: ['Z 分', 'z'],
  t: ['T 分', 'T'],
  band: ['相对常模（阴影为 M ± 1 SD）', 'Against the norm (shaded: M ± 1 SD)'],
  change: ['与上次结果相比', 'Change since the previous result'],
  improved: ['可靠改善', 'Reliable improvement'],
  deteriorated: ['可靠恶化', 'Reliable deterioration'],
  unchanged: ['无可靠改变', 'No reliable change'],
  into: ['越过临床界值进入临床范围（具有临床意义）', 'Crossed the clinical cut-off into the clinical range (clinically significant)'],
  out: ['越过临床界值回到非临床范围（具有临床意义）', 'Crossed the clinical cut-off out of the clinical range (clinically significant)'],
  normSource: ['常模来源', 'Norm source'],
  rciSource: ['可靠改变指数（Jacobson & Truax, 1991）所用信度', 'Reliability used by the reliable change index (Jacobson & Truax, 1991)'],
} satisfies Record<string, [string, string]>;

const word = (lang: Lang, key: keyof typeof WORDS) => WORDS[key][lang === 'en-US' ? 1 : 0];

/** A horizontal z bar from −3 to +3 SD: the norm band shaded, the score a dot. */
export function normBar(z: number): string {
  const x = (v: number) => 10 + ((Math.max(-3, Math.min(3, v)) + 3) / 6) * 180;
  const colour = z > 1 ? '#d0021b' : z < -1 ? '#4a90e2' : '#417505';
  return `<svg width="200" height="14" viewBox="0 0 200 14" role="img" aria-label="z ${esc(z)}"><line x1="10" y1="7" x2="190" y2="7" stroke="#d1d5db"/><rect x="${x(-1)}" y="2" width="${x(1) - x(-1)}" height="10" fill="#e5e7eb"/><line x1="${x(0)}" y1="1" x2="${x(0)}" y2="13" stroke="#9ca3af"/><circle cx="${x(z)}" cy="7" r="4" fill="${colour}"/></svg>`;
}

/** One line saying the change of this report, or '' when there is none to say. */
export function changeLine(change: ReliableChange | null, lang: Lang): string {
  if (!change) return '';
  const sep = lang === 'en-US' ? '; ' : '；';
  const parts = [`${word(lang, change.label)}（RCI ${change.rci.toFixed(2)}，${change.from} → ${change.to}）`];
  if (lang === 'en-US') parts[0] = `${word(lang, change.label)} (RCI ${change.rci.toFixed(2)}, ${change.from} → ${change.to})`;
  if (change.crossing) parts.push(word(lang, change.crossing));
  return parts.join(sep);
}

export function normSection(norm: ReportNorm | null, change: ReliableChange | null, lang: Lang): string {
  if (!norm?.rows.length && !change) return '';
  const colon = lang === 'en-US' ? ': ' : '：';
  const rows = (norm?.rows ?? [])
    .map(
      (r) =>
        `<tr><td>${esc(r.name)}</td><td class="num">${esc(r.score)}</td><td class="num">${esc(`${r.mean} ± ${r.sd}`)}</td><td class="num">${esc(r.z.toFixed(2))}</td><td class="num">${esc(r.t.toFixed(1))}</td><td>${normBar(r.z)}</td></tr>`,
    )
    .join('\n');
  const table = norm?.rows.length
    ? `<table class="norms"><thead><tr><th>${esc(word(lang, 'indicator'))}</th><th class="num">${esc(word(lang, 'score'))}</th><th class="num">${esc(word(lang, 'norm'))}</th><th class="num">${esc(word(lang, 'z'))}</th><th class="num">${esc(word(lang, 't'))}</th><th>${esc(word(lang, 'band'))}</th></tr></thead><tbody>
${rows}
</tbody></table>`
    : '';
  const notes = [
    norm ? `${word(lang, 'normSource')}${colon}${norm.name}（${norm.population}，n = ${norm.samplesize}，${norm.year}）${norm.source}` : '',
    change ? `${word(lang, 'rciSource')}${colon}r = ${change.reliability}，SD = ${change.sd}。${change.reliabilitysource}` : '',
  ].filter(Boolean);
  return `<section class="section keep">
<h2>${esc(word(lang, 'heading'))}</h2>
${table}
${change ? `<p><strong>${esc(word(lang, 'change'))}${colon}</strong>${esc(changeLine(change, lang))}</p>` : ''}
${notes.map((n) => `<p class="note footnote">${esc(n)}</p>`).join('\n')}
</section>`;
}

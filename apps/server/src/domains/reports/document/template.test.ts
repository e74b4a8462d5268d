import { describe, expect, it } from 'vitest';
import { esc } from '../../../kit/print.js';
import { renderReportDocument } from './template.js';
import { HOSTILE, sampleModel, t } from './test-model.js';

describe('the printable report document', () => {
  it('escapes every text from the database: no markup of a name, comment, answer or institution reaches the page', () => {
    const html = renderReportDocument(sampleModel('zh-CN'));
    expect(html).not.toContain('<script');
    expect(html).not.toMatch(/"'&(?!amp;|lt;|gt;|quot;|#39;)/);
    expect(html).toContain('王小红&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;');
    expect(html).toContain('已电话随访。&lt;script&gt;');
    expect(html).toContain('最近睡不好&lt;script&gt;');
    expect(html).toContain('张医生&lt;script&gt;');
    // Indicator names (from form definitions) also reach the charts, which ECharts draws as SVG text.
    const m = sampleModel('zh-CN');
    const named = { ...m.report.indicators[0]!, code: 'f1', name: t(`因子${HOSTILE}`, 'Factor') };
    const charts = renderReportDocument({
      ...m,
      report: { ...m.report, indicators: [...m.report.indicators, named] },
      trend: m.trend.map((p) => ({
        ...p,
        indicators: [...p.indicators, { code: 'f1', name: `因子${HOSTILE}`, score: 1, level: 0, colour: null }],
      })),
    });
    expect(charts.match(/<svg/g)!.length).toBe(4);
    expect(charts).not.toContain('<script');
    expect(esc(`<a href="x">'&`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;');
  });

  it('is self-contained: no script, no external resource; a logo only as an inline image', () => {
    const withLogo = renderReportDocument(sampleModel('zh-CN', { institution: { name: 'x', logo: 'data:image/png;base64,iVBORw0KGgo=' } }));
    expect(withLogo).toContain('<img src="data:image/png;base64,iVBORw0KGgo="');
    const remote = renderReportDocument(sampleModel('zh-CN', { institution: { name: 'x', logo: 'https://evil.example/logo.png' } }));
    expect(remote).not.toContain('<img');
    for (const html of [withLogo, remote]) {
      expect(html).not.toMatch(/<script|<link|@import|url\(\s*['"]?http|src="http/i);
    }
  });

  it('shows the person unmasked with gender and age, the form and version, every indicator, the trend, PHQ-9 history, answers and comments (zh)', () => {
    const html = renderReportDocument(sampleModel('zh-CN'));
    expect(html).toContain('<html lang="zh-CN">');
    for (const s of [
      '心理测评报告',
      '基本信息',
      '29 岁',
      '女',
      'v1',
      '2026-11-20 10:00 (UTC+8)',
      '测评结果',
      '各项指标',
      '中重度抑郁',
      '存在中重度抑郁症状。',
      '建议尽快接受专业评估。',
      '历次结果趋势',
      'PHQ-9 抑郁程度与第 9 题历史',
      '作答明细',
      '一半以上的天数',
      '工作人员意见',
      '第 9 题：有自伤念头',
    ]) {
      expect(html, s).toContain(s);
    }
    // The level in its five-level colour, named as the console names it (never the code "3").
    expect(html).toContain('background:#e8590c');
    expect(html).toMatch(/<span class="chip" style="background:#e8590c">中重度<\/span>/);
    const indicatorTable = html.slice(html.indexOf('各项指标'), html.indexOf('</table>', html.indexOf('各项指标')));
    expect(indicatorTable).not.toMatch(/<span class="chip"[^>]*>\d<\/span>/);
    expect(html.match(/<svg/g)!.length).toBeGreaterThanOrEqual(3);
  });

  it('speaks English when the caller does, without Chinese words of its own', () => {
    const m = sampleModel('en-US');
    const html = renderReportDocument(m);
    expect(html).toContain('<html lang="en">');
    for (const s of [
      'Psychological Assessment Report',
      'Basic information',
      '29 years',
      'Female',
      'Indicators',
      'Moderately severe',
      '<span class="chip" style="background:#e8590c">Moderately severe</span>',
      'Trend of results',
      'PHQ-9 depression level and item 9 history',
      'Answers',
      'Staff comments',
    ]) {
      expect(html, s).toContain(s);
    }
    // The only Chinese left is user data (names, institution, answer texts stored in Chinese).
    const visible = html
      .replace(/<style>[\s\S]*?<\/style>/, '')
      .replace(/<[^>]+>/g, ' ')
      .replace(/王小红|滨江医院|张医生|已电话随访。|最近睡不好|一半以上的天数|有几天|孕期筛查|孕早期/g, '');
    expect(visible).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it('prints on A4 with page breaks between the parts, rows and blocks kept whole and table headers repeated', () => {
    const html = renderReportDocument(sampleModel('zh-CN'));
    expect(html).toMatch(/@page \{ size: A4;/);
    expect(html).toMatch(/\.new-page \{ break-before: page;/);
    expect(html).toMatch(/thead \{ display: table-header-group; \}/);
    expect(html).toMatch(/tr, \.keep \{ break-inside: avoid;/);
    // The trend and the answers each start a page; the first page holds the header and the result.
    expect(html.match(/class="section new-page"/g)).toHaveLength(2);
    // Browser print numbers its pages; the PDF leaves that to Chromium's footer.
    expect(html).toContain('@bottom-center');
    expect(renderReportDocument(sampleModel('zh-CN'), { pageNumbers: 'none' })).not.toContain('@bottom-center');
  });

  it('leaves out the PHQ-9 history for other forms and says when there is no trend yet', () => {
    const m = sampleModel('zh-CN');
    const html = renderReportDocument({ ...m, phq9: null, trend: m.trend.slice(2), report: { ...m.report, formcode: 'GAD7' } });
    expect(html).not.toContain('第 9 题历史');
    expect(html).toContain('这是该受测者此量表的第一次结果');
  });
});

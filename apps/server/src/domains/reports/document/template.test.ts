import { describe, expect, it } from 'vitest';
import type { DocumentModel } from './model.js';
import { esc } from '../../../kit/print.js';
import { renderReportDocument } from './template.js';

const t = (zh: string, en = '') => ({ zh, en });
const HOSTILE = '<script>alert(1)</script>"\'&';

/** A PHQ-9 report with two earlier results and a comment, every free text hostile where it is user input. */
export function sampleModel(lang: DocumentModel['lang'], over: Partial<DocumentModel> = {}): DocumentModel {
  const indicator = {
    code: 'total',
    name: t('总分', 'Total'),
    kind: 'total' as const,
    raw: 16,
    score: 16,
    band: 3,
    level: 3,
    colour: '#e8590c',
    label: t('中重度抑郁', 'Moderately severe'),
    interpretation: t('存在中重度抑郁症状。', 'Moderately severe depressive symptoms.'),
    advice: t('建议尽快接受专业评估。', 'Seek a professional assessment soon.'),
    raisesWarning: true,
  };
  const point = (reportid: string, createdat: string, score: number, level: number) => ({
    reportid,
    createdat,
    mentalstate: level,
    indicators: [{ code: 'total', name: lang === 'en-US' ? 'Total' : '总分', score, level, colour: null }],
  });
  return {
    lang,
    institution: { name: `滨江医院 ${HOSTILE}`, logo: null },
    report: {
      reportid: 'A3',
      cusercode: 'C1',
      realname: `王小红${HOSTILE}`,
      gender: '02',
      appid: '000000001',
      appname: '孕产',
      musercode: 'I0002',
      insname: `滨江医院 ${HOSTILE}`,
      plancode: 'PL-M1',
      planname: '孕期筛查',
      stagecode: 'ST-M1',
      stagename: '孕早期',
      formcode: 'PHQ9',
      formname: 'PHQ-9',
      version: 1,
      mentalstate: 3,
      level: 3,
      colour: '#e8590c',
      warning: 1,
      voided: 0,
      hidden: 0,
      createdat: '2026-11-20T02:00:00.000Z',
      indicators: [indicator],
      warnings: [{ source: 'critical', reason: t('第 9 题：有自伤念头', 'Item 9: thoughts of self-harm'), no: 9 }],
      answers: [
        {
          no: 1,
          question: t('做事时提不起劲或没有兴趣', 'Little interest or pleasure in doing things'),
          type: 1,
          options: [3],
          answer: '一半以上的天数',
          score: 2,
        },
        {
          no: 9,
          question: t('有不如死掉或用某种方式伤害自己的念头', 'Thoughts that you would be better off dead'),
          type: 1,
          options: [2],
          answer: '有几天',
          score: 1,
        },
        { no: 11, question: t('其他想说的', 'Anything else'), type: 0, options: [], answer: `最近睡不好${HOSTILE}`, score: null },
      ],
      voidreason: null,
      comments: [],
      trend: [],
      norm: null,
    },
    person: { realname: `王小红${HOSTILE}`, gender: '02', age: 29 },
    trend: [
      point('A1', '2026-06-01T02:00:00.000Z', 6, 1),
      point('A2', '2026-09-01T02:00:00.000Z', 11, 2),
      point('A3', '2026-11-20T02:00:00.000Z', 16, 3),
    ],
    phq9: [
      { reportid: 'A1', createdat: '2026-06-01T02:00:00.000Z', score: 6, level: 1, item9: 0 },
      { reportid: 'A2', createdat: '2026-09-01T02:00:00.000Z', score: 11, level: 2, item9: 0 },
      { reportid: 'A3', createdat: '2026-11-20T02:00:00.000Z', score: 16, level: 3, item9: 1 },
    ],
    comments: [{ author: `张医生${HOSTILE}`, createdat: '2026-11-20T03:00:00.000Z', text: `已电话随访。${HOSTILE}` }],
    printedat: '2026-11-21T08:00:00.000Z',
    ...over,
  };
}

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

import { describe, expect, it } from 'vitest';
import type { DocumentModel } from './model.js';
import { renderDocument } from './layout.js';
import { renderReportDocument } from './template.js';
import type { FormDefinition } from '@xinli/contract';
import { sampleModel as customSample } from '../custom/sample.js';

/** The designer's sample report of a small form with one banded total (hand-written, no database). */
const DEF = {
  formcode: 'F1',
  formname: { zh: '测试量表', en: 'Test form' },
  version: 2,
  questions: [{ no: 1, type: 1, text: { zh: '题一', en: 'Item one' }, options: [{ text: { zh: '否', en: 'No' }, score: 0 }] }],
  indicators: [
    {
      code: 'TOTAL',
      name: { zh: '总分', en: 'Total' },
      kind: 'total',
      bands: [
        { min: 0, max: 4, level: 0, label: { zh: '正常', en: 'Normal' }, interpretation: { zh: '正常。', en: 'Normal.' }, advice: { zh: '', en: '' }, raisesWarning: false },
        { min: 5, max: 9, level: 1, label: { zh: '轻度', en: 'Mild' }, interpretation: { zh: '轻度。', en: 'Mild.' }, advice: { zh: '复评。', en: 'Rescreen.' }, raisesWarning: false },
      ],
    },
  ],
} as unknown as FormDefinition;
const sampleModel = (lang: DocumentModel['lang']) => customSample(DEF, lang, '测试医院', new Date('2026-11-20T02:00:00Z'));

/** The custom report's layout (issue 31 §4): sections in the template's order, and only those. */
const layout = (over: Partial<NonNullable<DocumentModel['layout']>> = {}): NonNullable<DocumentModel['layout']> => ({
  versionid: 'RV1',
  name: '门诊模板',
  version: 3,
  title: '门诊心理评估报告',
  sections: ['signoff', 'summary', 'norms'],
  signoff: '医生签名：＿＿',
  ...over,
});

describe('custom report layout', () => {
  it('without a layout is the standard document', () => {
    const m = sampleModel('zh-CN');
    // The chart library numbers its style classes per rendering: compare the sections and the text.
    const headings = (html: string) => html.match(/<h[12]>[^<]*<\/h[12]>/g);
    expect(headings(renderDocument(m))).toEqual(headings(renderReportDocument(m)));
    expect(renderDocument(m)).toContain('<h2>测评结果</h2>');
  });

  it('shows the template’s sections in its order, its title and sign-off, and nothing else', () => {
    const html = renderDocument({ ...sampleModel('zh-CN'), layout: layout() });
    expect(html).toContain('<h1>门诊心理评估报告</h1>');
    const at = (s: string) => html.indexOf(s);
    expect(at('医生签名：＿＿')).toBeGreaterThan(0);
    expect(at('医生签名：＿＿')).toBeLessThan(at('<h2>概要</h2>'));
    expect(at('<h2>概要</h2>')).toBeLessThan(at('<h2>常模比较</h2>'));
    expect(html).toContain('报告模板：门诊模板（第 3 版）');
    for (const absent of ['作答明细', '工作人员意见', '历次结果趋势', '<h2>建议</h2>']) expect(html).not.toContain(absent);
  });

  it('the norms section: a neutral line without norm data, the rows and source with it (escaped)', () => {
    const none = renderDocument({ ...sampleModel('en-US'), layout: layout({ sections: ['norms'] }) });
    expect(none).toContain('No norm data is available for this form.');
    const norm = {
      normid: 'N1',
      name: 'SCL-90 national norm',
      population: 'Chinese adults',
      samplesize: 1388,
      year: 1986,
      source: 'Jin Hua 1986 <i>',
      rows: [{ code: 'SOM', name: 'Somatization<b>', score: 2.1, mean: 1.37, sd: 0.48, z: 1.52, t: 65.2 }],
    };
    const model = sampleModel('en-US');
    const html = renderDocument({ ...model, report: { ...model.report, norm }, layout: layout({ sections: ['norms'] }) });
    expect(html).not.toContain('No norm data is available for this form.');
    expect(html).toContain('Somatization&lt;b&gt;');
    expect(html).toContain('1.37 ± 0.48');
    expect(html).toContain('>65.2<');
    expect(html).toContain('Jin Hua 1986 &lt;i&gt;');
  });
});

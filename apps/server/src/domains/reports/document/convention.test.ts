import { describe, expect, it } from 'vitest';
import { renderReportDocument } from './template.js';
import { sampleModel } from './test-model.js';

/** Issue 31 §1: the PDF names the scoring convention a report was scored with, and its source. */
describe('the scoring convention on the printed report', () => {
  const convention = {
    code: 'cn53-round',
    name: { zh: '标准分＝粗分×1.25 四舍五入；界值 53/63/73（中国常模）', en: 'Standard score = raw × 1.25 rounded; cut-offs 53/63/73 (Chinese norm)' },
    source: '王春芳等 1986（中国常模）',
  };
  const withConvention = (lang: 'zh-CN' | 'en-US') => {
    const m = sampleModel(lang);
    return renderReportDocument({ ...m, report: { ...m.report, convention } });
  };
  it('prints the convention and its source in Chinese', () => {
    expect(withConvention('zh-CN')).toContain('计分约定：标准分＝粗分×1.25 四舍五入；界值 53/63/73（中国常模）（来源：王春芳等 1986（中国常模））');
  });
  it('prints it in English', () => {
    expect(withConvention('en-US')).toContain('Scoring convention: Standard score = raw × 1.25 rounded; cut-offs 53/63/73 (Chinese norm) (Source: 王春芳等 1986（中国常模）)');
  });
  it('prints nothing for a form without conventions', () => {
    expect(renderReportDocument(sampleModel('zh-CN'))).not.toContain('计分约定');
  });
});

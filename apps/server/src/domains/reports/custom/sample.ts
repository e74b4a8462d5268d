import type { FormDefinition, Lang } from '@xinli/contract';
import type { DocumentModel } from '../document/model.js';

/**
 * The sample report a template is previewed with when no real report is chosen: the template's
 * first form, each indicator at the start of its second band (or 0), with a fictional person, an
 * earlier result for the trend and one staff comment. Nothing in it is a real person's data.
 */
export function sampleModel(def: FormDefinition, lang: Lang, insname: string, now: Date): DocumentModel {
  const en = lang === 'en-US';
  const indicators = def.indicators.map((i) => {
    const band = i.bands[Math.min(1, i.bands.length - 1)];
    const score = band ? band.min : 0;
    return {
      code: i.code,
      name: i.name,
      kind: i.kind,
      raw: score,
      score,
      band: band ? i.bands.indexOf(band) : null,
      level: band?.level ?? null,
      colour: band?.colour ?? null,
      label: band?.label ?? null,
      interpretation: band?.interpretation ?? null,
      advice: band?.advice ?? null,
      raisesWarning: band?.raisesWarning ?? false,
    };
  });
  const worst = Math.max(0, ...indicators.map((i) => i.level ?? 0));
  const day = (offset: number) => new Date(now.getTime() - offset * 86_400_000).toISOString();
  const point = (reportid: string, createdat: string, factor: number) => ({
    reportid,
    createdat,
    mentalstate: worst,
    indicators: indicators.map((i) => ({ code: i.code, name: en && i.name.en ? i.name.en : i.name.zh, score: Math.round(i.score * factor), level: i.level, colour: i.colour })),
  });
  const trend = [point('SAMPLE-1', day(90), 0.6), point('SAMPLE', day(1), 1)];
  const formname = en && def.formname.en ? def.formname.en : def.formname.zh;
  return {
    lang,
    institution: { name: insname, logo: null },
    report: {
      reportid: 'SAMPLE',
      cusercode: 'SAMPLE',
      realname: en ? 'Sample Person' : '示例受测者',
      gender: '02',
      appid: '000000005',
      appname: en ? 'Custom report' : '定制报告',
      musercode: '',
      insname,
      plancode: '',
      planname: en ? 'Sample plan' : '示例方案',
      stagecode: '',
      stagename: '',
      formcode: def.formcode,
      formname,
      version: def.version,
      mentalstate: worst,
      level: worst,
      colour: null,
      warning: 0,
      voided: 0,
      hidden: 0,
      createdat: day(1),
      indicators,
      warnings: [],
      answers: def.questions.slice(0, 5).map((q, k) => ({
        no: q.no,
        question: q.text,
        type: 1,
        options: [1],
        answer: q.options?.[0] ? (en && q.options[0].text.en ? q.options[0].text.en : q.options[0].text.zh) : '',
        score: q.options?.[0]?.score ?? (k % 2),
      })),
      voidreason: null,
      comments: [],
      trend: trend.map((t) => ({ reportid: t.reportid, createdat: t.createdat, version: def.version, mentalstate: t.mentalstate, indicators: t.indicators.map((i) => ({ quotacode: i.code, score: i.score, level: i.level, colour: i.colour })) })),
    },
    person: { realname: en ? 'Sample Person' : '示例受测者', gender: '02', age: 34 },
    trend,
    phq9: null,
    comments: [{ author: en ? 'Sample counsellor' : '示例咨询师', createdat: day(0), text: en ? 'Discussed the result; follow-up in two weeks.' : '已与受测者沟通结果，两周后随访。' }],
    printedat: now.toISOString(),
  };
}

/** The shared shape of Zung's SDS and SAS: 20 items scored 1-4, standard score = int(raw x 1.25). */
import type { IndicatorInput } from './build.js';
import { options, t } from './build.js';

export const zungFrequency = options([
  ['没有或很少时间', 'None or a little of the time', 1],
  ['小部分时间', 'Some of the time', 2],
  ['相当多时间', 'A good part of the time', 3],
  ['绝大部分或全部时间', 'Most or all of the time', 4],
]);

/** Raw total (20-80), unbanded. */
export const zungRaw: IndicatorInput = { code: 'RAW', name: t('粗分', 'Raw score'), kind: 'total', formula: { op: 'sum' } };

/** Standard score: whole part of raw x 1.25 (25-100). */
export const zungStandard = (bands: IndicatorInput['bands']): IndicatorInput => ({
  code: 'STD',
  name: t('标准分', 'Standard score'),
  kind: 'total',
  formula: { op: 'sum' },
  transforms: [{ op: 'linear', a: 1.25, b: 0 }, { op: 'int' }],
  bands,
});

export const zungLicence = t(
  'Zung 量表的版权状况未能确认，因此不内置条目原文；机构可在量表编辑器中补充其有权使用的题干文字。',
  'The copyright status of the Zung scales could not be established, so the item wording is not carried; an institution adds wording it is entitled to use in the scale editor.',
);

/** The shared shape of Zung's SDS and SAS: 20 items scored 1-4, standard score = int(raw x 1.25). */
import type { FormDefinitionInput } from '@xinli/contract';
import type { BandInput, IndicatorInput } from './build.js';
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

type ConventionInput = NonNullable<FormDefinitionInput['conventions']>[number];

/** One set of cut-offs a source gives for the standard score, with its bands. */
export interface ZungCutoffs {
  code: string;
  name: [string, string];
  source: string;
  bands: BandInput[];
}

/**
 * The scoring conventions of a Zung scale: each set of cut-offs, with the standard score truncated
 * (today's default, most sources) or rounded (some sources: moves each band edge down one raw point).
 * The first cut-off set truncated is the default and overrides nothing.
 */
export function zungConventions(cutoffs: ZungCutoffs[]): ConventionInput[] {
  const rounding = { zh: '四舍五入', en: 'rounded' };
  const truncating = { zh: '取整数部分', en: 'truncated (whole part)' };
  const roundSource = '四舍五入：xinzhwenda.com/life/327804.html';
  return cutoffs.flatMap((c, i) =>
    ([false, true] as const).map((round) => {
      const way = round ? rounding : truncating;
      const over = [
        ...(i > 0 || round
          ? [{ code: 'STD', ...(round ? { transforms: [{ op: 'linear' as const, a: 1.25, b: 0 }, { op: 'round' as const, digits: 0 }] } : {}), ...(i > 0 ? { bands: c.bands } : {}) }]
          : []),
      ];
      return {
        code: `${c.code}-${round ? 'round' : 'int'}`,
        name: t(`标准分＝粗分×1.25 ${way.zh}；${c.name[0]}`, `Standard score = raw × 1.25 ${way.en}; ${c.name[1]}`),
        source: round ? `${c.source}；${roundSource}` : c.source,
        indicators: over,
      };
    }),
  );
}

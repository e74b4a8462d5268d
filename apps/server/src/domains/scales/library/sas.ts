/**
 * SAS, Zung Self-rating Anxiety Scale (焦虑自评量表).
 * From the research note (assessment-domain.md §2): 20 items 1-4; items 5, 9, 13, 17, 19
 * reversed; standard score = int(raw x 1.25); Chinese norm: 50-59 mild, 60-69 moderate, >=70 severe.
 */
import type { FormDefinitionInput } from '@xinli/contract';
import { band, placeholderItems, t } from './build.js';
import { zungConventions, zungFrequency, zungLicence, zungRaw, zungStandard } from './zung.js';

export const SAS_REVERSED = [5, 9, 13, 17, 19];

export const sas: FormDefinitionInput = {
  formcode: 'SAS',
  formname: t('焦虑自评量表（SAS）', 'Zung Self-rating Anxiety Scale (SAS)'),
  formtype: '01',
  appids: ['000000001', '000000003'],
  instructions: t(
    '请根据你最近一周的实际感觉，选择最适合的答案。',
    'Choose the answer that best fits how you have felt during the past week.',
  ),
  version: 1,
  licence: zungLicence,
  source: 'Zung WWK. A rating instrument for anxiety disorders. Psychosomatics 1971;12(6):371-379. Chinese norm: 吴文源 1990 (cut-off 50).',
  fulltext: false,
  questions: placeholderItems(20, zungFrequency, { reverse: SAS_REVERSED }),
  indicators: [
    zungRaw,
    zungStandard([
      band(
        25,
        49,
        0,
        ['无焦虑', 'No anxiety'],
        ['标准分低于50，未见明显焦虑。', 'Standard score below 50: no notable anxiety.'],
        ['保持良好作息。', 'Keep healthy routines.'],
      ),
      band(
        50,
        59,
        1,
        ['轻度焦虑', 'Mild anxiety'],
        ['存在轻度焦虑症状。', 'Mild anxiety symptoms.'],
        ['学习放松方法，2-4 周后复评。', 'Learn relaxation skills; rescreen in 2-4 weeks.'],
      ),
      band(
        60,
        69,
        2,
        ['中度焦虑', 'Moderate anxiety'],
        ['存在中度焦虑症状。', 'Moderate anxiety symptoms.'],
        ['建议心理咨询并由专业人员评估。', 'Counselling and a professional assessment are advised.'],
        true,
      ),
      band(
        70,
        100,
        4,
        ['重度焦虑', 'Severe anxiety'],
        ['存在重度焦虑症状。', 'Severe anxiety symptoms.'],
        ['建议尽快到精神科就诊。', 'Refer to psychiatry promptly.'],
        true,
      ),
    ]),
  ],
  // Sources agree on 50/60/70 for the SAS; they differ on truncating or rounding the conversion.
  conventions: zungConventions([
    {
      code: 'cn50',
      name: ['界值 50/60/70（中国常模）', 'cut-offs 50/60/70 (Chinese norm)'],
      source: '吴文源 1990（中国常模）；xlzx.jxvc.jx.cn/info/1021/1566.htm',
      bands: [],
    },
  ]),
  mentalState: { method: 'maxLevel', indicators: ['STD'] },
};

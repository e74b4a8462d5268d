/**
 * Built-in user-archive forms (form type 02), one per population app: the archive questions a
 * person of that app answers besides name, gender, birth date, phone and ID number. Unscored.
 * Together they use every input type of SPEC §3 (0 text … 8 region). An institution replaces
 * one by copying it in the scale library and editing the copy (its own type-02 form of the app
 * comes first).
 */
import type { FormDefinitionInput, LocalText } from '@xinli/contract';
import { options, t } from './build.js';
import type { QuestionInput } from './build.js';

const licence = t('平台自编档案表，可自由使用与修改。', 'Archive form written for the platform; free to use and change.');
const source = 'Xinli platform: archive fields chosen from the population pages of SPEC §2 and the research note assessment-domain.md.';

const single = (no: number, text: LocalText, opts: [string, string][], required = false): QuestionInput => ({
  no,
  type: 1,
  required,
  text,
  options: options(opts.map(([zh, en]) => [zh, en, 0])),
});
const multiple = (no: number, text: LocalText, opts: [string, string][]): QuestionInput => ({
  no,
  type: 2,
  required: false,
  text,
  options: options(opts.map(([zh, en]) => [zh, en, 0])),
});
const fill = (no: number, text: LocalText, inputtype: number, range?: { min: number; max: number }): QuestionInput => ({
  no,
  type: 0,
  inputtype,
  required: false,
  text,
  ...(range ? { range } : {}),
});

const archive = (formcode: string, appid: string, name: LocalText, questions: QuestionInput[]): FormDefinitionInput => ({
  formcode,
  formname: name,
  formtype: '02',
  appids: [appid],
  instructions: { zh: '请如实填写，带 * 的为必填项。', en: 'Please answer truthfully; items marked * are required.' },
  version: 1,
  licence,
  source,
  fulltext: true,
  questions,
});

export const maternityArchive = archive('ARCHIVE_YF', '000000001', t('孕产妇档案', 'Maternity archive'), [
  single(
    1,
    t('孕产阶段', 'Stage'),
    [
      ['孕早期（14周前）', 'Early pregnancy (before week 14)'],
      ['孕中期（14–27周）', 'Mid pregnancy (weeks 14–27)'],
      ['孕晚期（28周及以后）', 'Late pregnancy (week 28 on)'],
      ['产后42天内', 'Within 42 days after birth'],
      ['产后42天以上', 'More than 42 days after birth'],
    ],
    true,
  ),
  fill(2, t('预产期或分娩日期', 'Due or birth date'), 3),
  fill(3, t('孕周', 'Week of pregnancy'), 7, { min: 0, max: 45 }),
  fill(4, t('胎次', 'Pregnancy number'), 1, { min: 1, max: 15 }),
  fill(5, t('居住地区', 'Home region'), 8),
  multiple(6, t('既往心理问题', 'Earlier mental-health problems'), [
    ['无', 'None'],
    ['抑郁', 'Depression'],
    ['焦虑', 'Anxiety'],
    ['其他', 'Other'],
  ]),
]);

export const studentArchive = archive('ARCHIVE_YE', '000000002', t('学生档案', 'Student archive'), [
  single(
    1,
    t('学段', 'School level'),
    [
      ['小学', 'Primary'],
      ['初中', 'Junior secondary'],
      ['高中', 'Senior secondary'],
      ['中职', 'Vocational'],
      ['大学', 'University'],
    ],
    true,
  ),
  fill(2, t('年级', 'Grade'), 1, { min: 1, max: 12 }),
  fill(3, t('学校', 'School'), 0),
  single(4, t('是否住校', 'Boarding'), [
    ['是', 'Yes'],
    ['否', 'No'],
  ]),
  fill(5, t('家庭所在地区', 'Home region'), 8),
  fill(6, t('在校时间', 'School hours'), 6),
]);

export const workingArchive = archive('ARCHIVE_YG', '000000003', t('职业人群档案', 'Working-adult archive'), [
  single(
    1,
    t('职业类别', 'Occupation'),
    [
      ['医护', 'Healthcare'],
      ['教师', 'Teaching'],
      ['警察消防', 'Police and fire'],
      ['信息技术', 'Information technology'],
      ['金融', 'Finance'],
      ['制造', 'Manufacturing'],
      ['其他', 'Other'],
    ],
    true,
  ),
  fill(2, t('每周工作小时', 'Working hours a week'), 2, { min: 0, max: 168 }),
  fill(3, t('上班时间', 'Work starts at'), 4),
  fill(4, t('最近一次体检时间', 'Last health check'), 5),
  fill(5, t('工作地区', 'Work region'), 8),
]);

export const olderArchive = archive('ARCHIVE_YL', '000000004', t('中老年人档案', 'Older-adult archive'), [
  single(
    1,
    t('居住状况', 'Living arrangement'),
    [
      ['独居', 'Alone'],
      ['与配偶同住', 'With spouse'],
      ['与子女同住', 'With children'],
      ['养老机构', 'Care home'],
    ],
    true,
  ),
  multiple(2, t('慢性病', 'Chronic conditions'), [
    ['无', 'None'],
    ['高血压', 'High blood pressure'],
    ['糖尿病', 'Diabetes'],
    ['心脑血管病', 'Heart or stroke'],
    ['其他', 'Other'],
  ]),
  fill(3, t('紧急联系人', 'Emergency contact'), 0),
  fill(4, t('居住地区', 'Home region'), 8),
  fill(5, t('每日睡眠小时', 'Sleep hours a day'), 2, { min: 0, max: 24 }),
]);

export const archiveSources: FormDefinitionInput[] = [maternityArchive, studentArchive, workingArchive, olderArchive];

/**
 * The built-in consultation registration form (form type 03, SPEC §2 /registration): what a
 * person asking for a consultation tells the institution. Unscored. An institution replaces it by
 * copying it in the scale library and editing the copy (its own enabled type-03 form comes first).
 */
import type { FormDefinitionInput } from '@xinli/contract';
import { options, t } from './build.js';

export const consultationRegistration: FormDefinitionInput = {
  formcode: 'REG_CONSULT',
  formname: t('心理咨询预约登记表', 'Consultation request form'),
  formtype: '03',
  appids: [],
  instructions: t('请填写您希望咨询的内容和方便的时间，工作人员会尽快与您联系。带 * 的为必填项。', 'Tell us what you would like to talk about and when suits you; staff will contact you soon. Items marked * are required.'),
  version: 1,
  licence: t('平台自编登记表，可自由使用与修改。', 'Registration form written for the platform; free to use and change.'),
  source: 'Xinli platform: the fields of a consultation request (reason, urgency, preferred time and way of contact) from SPEC §2 /registration.',
  fulltext: true,
  questions: [
    {
      no: 1,
      type: 2,
      required: true,
      text: t('您想咨询的方面（可多选）', 'What would you like to talk about? (choose any)'),
      options: options([
        ['情绪困扰（焦虑、低落等）', 'Emotional distress (anxiety, low mood…)', 0],
        ['学习或工作压力', 'Pressure at school or work', 0],
        ['人际或家庭关系', 'Relationships or family', 0],
        ['睡眠问题', 'Sleep problems', 0],
        ['孕产期或育儿困扰', 'Pregnancy, birth or parenting', 0],
        ['其他', 'Something else', 0],
      ]),
    },
    { no: 2, type: 0, inputtype: 0, required: false, text: t('请简单描述您的情况', 'Please describe your situation briefly') },
    {
      no: 3,
      type: 1,
      required: true,
      text: t('您希望多快得到回复？', 'How soon would you like to hear from us?'),
      options: options([
        ['尽快（今天）', 'As soon as possible (today)', 0],
        ['本周内', 'This week', 0],
        ['时间不急', 'No hurry', 0],
      ]),
    },
    {
      no: 4,
      type: 1,
      required: true,
      text: t('方便的咨询时间', 'Preferred time for the consultation'),
      options: options([
        ['工作日上午', 'Weekday mornings', 0],
        ['工作日下午', 'Weekday afternoons', 0],
        ['工作日晚上', 'Weekday evenings', 0],
        ['周末', 'Weekends', 0],
      ]),
    },
    {
      no: 5,
      type: 1,
      required: true,
      text: t('希望的联系方式', 'How should we contact you?'),
      options: options([
        ['电话', 'Phone call', 0],
        ['短信', 'Text message', 0],
        ['当面', 'In person', 0],
      ]),
    },
  ],
};

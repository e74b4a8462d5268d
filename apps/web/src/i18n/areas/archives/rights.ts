import { defineArea } from '../../area';

/** A person's rights over their record: export, anonymisation, retention (archives.rights.*). */
export default defineArea({
  zh: {
    export: '导出个人记录',
    pdf: 'PDF（可打印）',
    json: 'JSON（机器可读）',
    fileName: '个人记录',
    anonymise: '匿名化',
    anonymised: '已匿名',
    confirmTitle: '匿名化“{{name}}”？',
    confirmRemoves: '将永久删除：姓名、手机号、身份证号、出生月日、档案中的文字回答、测评中的文字作答、知情同意签名、评语与随访记录中的文字，以及咨询登记中的姓名和电话。',
    confirmKeeps: '将保留：性别、出生年份、所属机构和班级、测评得分与等级、预警与个案的状态，统计结果不受影响。',
    confirmFinal: '此操作不可撤销，匿名后不能再修改该测评对象。',
    done: '已匿名',
    retention: '保存期限',
    retentionTitle: '个人信息保存期限',
    retentionHelp: '测评对象在这么多个月内没有测评、个案、随访或修改，将由每日任务自动匿名化。填 0 表示不自动匿名（默认）。',
    months: '月数',
  },
  en: {
    export: 'Export record',
    pdf: 'PDF (printable)',
    json: 'JSON (machine-readable)',
    fileName: 'record',
    anonymise: 'Anonymise',
    anonymised: 'Anonymised',
    confirmTitle: 'Anonymise “{{name}}”?',
    confirmRemoves:
      'Removed for good: name, phone, ID number, birth month and day, archive answers in words, free-text answers, consent signatures, the words of comments and follow-ups, and the name and phone of consultation registrations.',
    confirmKeeps: 'Kept: gender, birth year, institution and class, scores and levels, the states of warnings and cases; statistics do not change.',
    confirmFinal: 'This cannot be undone, and the person can no longer be edited.',
    done: 'Anonymised',
    retention: 'Retention',
    retentionTitle: 'Retention of personal data',
    retentionHelp: 'Persons with no assessment, case, follow-up or edit for this many months are anonymised by a daily job. 0 turns it off (the default).',
    months: 'Months',
  },
});

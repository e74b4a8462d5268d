import { defineArea } from '../../area';

/** An institution's warning triggers and escalation (earlyWarning.settings.*). */
export default defineArea({
  zh: {
    title: '预警设置',
    musercode: '机构',
    worsenpoints: '分数恶化阈值（分）',
    worsenpointsHelp: '同一量表总分比上一次升高至少这么多分时预警；0 为不启用。',
    worsenlevels: '等级恶化阈值（级）',
    worsenlevelsHelp: '分段等级比上一次升高至少这么多级时预警；0 为不启用。',
    misseddays: '逾期未测（天）',
    misseddaysHelp: '分配的测评超过这么多天未完成时预警；0 为不启用。',
    escalateminutes: '升级时限（分钟）',
    escalateminutesHelp: '危急个案在这么多分钟内无人确认时，通知机构管理员；0 为不启用。',
  },
  en: {
    title: 'Warning settings',
    musercode: 'Institution',
    worsenpoints: 'Worsening by points',
    worsenpointsHelp: 'Warn when a total rises by at least this many points since the previous report of the same scale; 0 turns it off.',
    worsenlevels: 'Worsening by levels',
    worsenlevelsHelp: 'Warn when the band level rises by at least this many levels; 0 turns it off.',
    misseddays: 'Missed after (days)',
    misseddaysHelp: 'Warn when a given assessment is not finished after this many days; 0 turns it off.',
    escalateminutes: 'Escalate after (minutes)',
    escalateminutesHelp: 'Tell the institution’s administrators when nobody acknowledges a critical case in time; 0 turns it off.',
  },
});

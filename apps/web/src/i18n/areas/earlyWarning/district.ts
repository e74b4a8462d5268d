import { defineArea } from '../../area';

/**
 * What an education bureau sees of crisis warnings and interventions (earlyWarning.district.*):
 * its district's totals, never a person (issue 28).
 */
export default defineArea({
  zh: {
    scope: '个案由各学校负责处理，辖区只查看汇总数字。少于 {{min}} 例的数字，以及能由其他数字推算出它的数字，显示为“—”，以免指向具体学生。',
    reportScope: '这里是辖区各学校测评的汇总；个人报告由各学校保管，辖区不查看。',
    planScope: '这里是辖区各学校收到的计划授权。',
    followScope: '随访记录由各学校负责；辖区查看个案与随访的汇总数字。',
    summary: '辖区危机个案',
    total: '个案总数',
    followups: '随访记录',
    byLevel: '按预警等级',
    byState: '按处理状态',
    bySchool: '各学校个案',
    insname: '学校',
    schoolTotal: '个案',
    critical: '危急',
    open: '未结案',
    small: '—',
    none: '所选范围内辖区暂无危机个案',
  },
  en: {
    scope: 'Individual cases are handled by each school; the district sees totals. Counts under {{min}}, and counts from which one could be worked out, show as "—" so that no figure points at a pupil.',
    reportScope: "These are totals of your district's schools; individual reports stay with each school.",
    planScope: "These are the plan authorisations your district's schools received.",
    followScope: 'Follow-ups are handled by each school; the district sees totals of cases and follow-ups.',
    summary: 'Crisis cases in the district',
    total: 'Cases',
    followups: 'Follow-ups',
    byLevel: 'By level',
    byState: 'By state',
    bySchool: 'Cases per school',
    insname: 'School',
    schoolTotal: 'Cases',
    critical: 'Critical',
    open: 'Not closed',
    small: '—',
    none: 'No crisis cases in the district in the chosen range',
  },
});

/** Enumerations of SPEC §3, each value with its Chinese and English label. */
export interface EnumItem<V extends string | number = string> {
  value: V;
  zh: string;
  en: string;
}

const items = <V extends string | number>(list: [V, string, string][]): EnumItem<V>[] => list.map(([value, zh, en]) => ({ value, zh, en }));

export const OrderStatus = items<number>([
  [1, '待支付', 'Pending payment'],
  [2, '支付中', 'Paying'],
  [3, '已支付', 'Paid'],
  [4, '支付失败', 'Payment failed'],
  [5, '已取消', 'Cancelled'],
  [10, '部分退款', 'Partial refund'],
  [11, '已退款', 'Refunded'],
]);

export const Enabled = items<number>([
  [1, '启用', 'Enabled'],
  [0, '停用', 'Disabled'],
]);

export const ListingStatus = items<number>([
  [0, '待上架', 'To be listed'],
  [1, '在售', 'On sale'],
  [2, '已下架', 'Delisted'],
]);

export const YesNo = items<number>([
  [1, '是', 'Yes'],
  [0, '否', 'No'],
]);

export const Gender = items<string>([
  ['01', '男', 'Male'],
  ['02', '女', 'Female'],
]);

export const MentalState = items<number>([
  [0, '无', 'None'],
  [1, '良好', 'Good'],
  [2, '轻度情绪问题', 'Mild emotional problem'],
  [3, '中度情绪问题', 'Moderate emotional problem'],
  [4, '重度情绪问题', 'Severe emotional problem'],
]);

export const FormType = items<string>([
  ['01', '自评量表', 'Self-assessment'],
  ['02', '用户档案量表', 'User-archive scale'],
  ['03', '登记表', 'Registration form'],
  ['04', '他评量表', 'Other-rated scale'],
]);

export const QuestionType = items<number>([
  [0, '填空', 'Fill-in'],
  [1, '单选', 'Single choice'],
  [2, '多选', 'Multiple choice'],
]);

export const InputType = items<number>([
  [0, '文本', 'Plain text'],
  [1, '整数', 'Integer'],
  [2, '小数', 'Decimal'],
  [3, '日期', 'Date'],
  [4, '时间', 'Time'],
  [5, '日期时间', 'Date and time'],
  [6, '时间范围', 'Time range'],
  [7, '数字选择器', 'Number picker'],
  [8, '省市区选择器', 'Province/city/district picker'],
]);

export const Phq9Level = items<number>([
  [0, '无抑郁', 'None'],
  [1, '轻度', 'Mild'],
  [2, '中度', 'Moderate'],
  [3, '中重度', 'Moderately severe'],
  [4, '重度', 'Severe'],
]);

/**
 * The five band levels (0..4) by name: the one place the console (evaluating.levels.*), the
 * exports, the printed reports and warning texts take a level's words from.
 */
export const BandLevel = items<number>([
  [0, '正常', 'Normal'],
  [1, '轻度', 'Mild'],
  [2, '中度', 'Moderate'],
  [3, '中重度', 'Moderately severe'],
  [4, '重度', 'Severe'],
]);

/** A band level's name in `lang`; '' for no level (an indicator without bands). */
export const levelWord = (level: number | null | undefined, lang: 'zh-CN' | 'en-US'): string =>
  level === null || level === undefined ? '' : enumLabel(BandLevel, level, lang);

/** Warning and case levels, case states and warning kinds by name: the console's words, shared with exports and messages. */
export const WarningLevelName = items<string>([
  ['critical', '危急', 'Critical'],
  ['attention', '关注', 'Attention'],
]);
export const CaseStateName = items<string>([
  ['open', '待确认', 'New'],
  ['acknowledged', '已确认', 'Acknowledged'],
  ['followup', '跟进中', 'In follow-up'],
  ['closed', '已结案', 'Closed'],
]);
/** What a case event records (a case's timeline; the person's record prints it). */
export const CaseEventName = items<string>([
  ['state', '状态变更', 'State changed'],
  ['assign', '分配', 'Assigned'],
  ['warning', '新预警', 'New warning'],
  ['followup', '随访', 'Follow-up'],
  ['rescreen', '复测', 'Rescreen'],
  ['escalate', '超时升级', 'Escalated (not acknowledged in time)'],
]);
export const WarningKindName = items<string>([
  ['critical_item', '危机条目', 'Critical item'],
  ['band', '高风险分段', 'High-risk band'],
  ['screening', '筛查阳性', 'Screen positive'],
  ['worsening', '分数恶化', 'Worsening'],
  ['missed', '逾期未测', 'Missed assessment'],
  ['manual', '人工标记', 'Flagged by staff'],
]);

/** Follow-up contact ways (contactWay): the console's options, the record PDF and the statistics name them so. */
export const ContactWayName = items<string>([
  ['phone', '电话', 'Phone'],
  ['visit', '上门走访', 'Home visit'],
  ['interview', '面谈', 'Interview'],
  ['online', '线上', 'Online'],
  ['other', '其他', 'Other'],
]);

/** Consent records (issue 30 §4): what was recorded, how, and a guardian's relation; the console and the person's record name them so. */
export const ConsentKindName = items<string>([
  ['notice', '本人同意告知', 'Agreed to the notice'],
  ['guardian', '监护人同意', 'Guardian consented'],
  ['withdrawal', '撤回同意', 'Consent withdrawn'],
  ['renewal', '重新同意', 'Consent renewed'],
]);
export const ConsentViaName = items<string>([
  ['phone', '手机端', 'On the phone'],
  ['sheet', '班级同意书', 'Class consent sheet'],
  ['staff', '工作人员登记', 'Recorded by staff'],
]);
/** A guardian's relation to the child; `guardian` marks a withdrawal made by an unnamed guardian. */
export const GuardianRelationName = items<string>([
  ['father', '父亲', 'Father'],
  ['mother', '母亲', 'Mother'],
  ['grandparent', '（外）祖父母', 'Grandparent'],
  ['other', '其他监护人', 'Other guardian'],
  ['guardian', '监护人', 'Guardian'],
]);

/** The report colour scale: five levels, green to dark red (level 0..4). */
export const LevelColours = ['#43a777', '#a0c734', '#f5a623', '#e8590c', '#9b1c1c'] as const;

/** Account types of SPEC §6 (musertype). */
export const MUserType = items<string>([
  ['001', '学校', 'School'],
  ['002', '医院', 'Hospital'],
  ['003', '企业', 'Employer'],
  ['004', '养老机构', 'Elderly-care provider'],
  ['005', '服务商', 'Service provider'],
]);

export function enumLabel<V extends string | number>(list: EnumItem<V>[], value: V, lang: 'zh-CN' | 'en-US'): string {
  const item = list.find((i) => i.value === value);
  return item ? (lang === 'en-US' ? item.en : item.zh) : String(value);
}

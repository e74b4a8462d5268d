/**
 * The console's message keys as types, so a missing or misspelt key fails the type check (as the
 * respondent's keys do, respondent/i18n.ts). The tree is the Chinese one, built as buildResources
 * builds it at run time: `areas/common.ts` -> `common`, `areas/authority/role.ts` -> `authority.role`.
 * English has the same keys: defineArea makes a missing one a type error. Type imports only, so
 * no messages reach a chunk through this file; keys.test.ts checks every area file is listed here.
 */
import type DatastatisticsPlan from './areas/Datastatistics/plan';
import type ServiceAccount from './areas/Service/account';
import type ArchivesArchive from './areas/archives/archive';
import type ArchivesRights from './areas/archives/rights';
import type ArchivesConsent from './areas/archives/consent';
import type ArchivesForm from './areas/archives/form';
import type ArchivesLinkEntry from './areas/archives/linkEntry';
import type ArchivesPerson from './areas/archives/person';
import type AuthorityAudit from './areas/authority/audit';
import type AuthorityMenu from './areas/authority/menu';
import type AuthorityRole from './areas/authority/role';
import type Common from './areas/common';
import type EarlyWarningCase from './areas/earlyWarning/case';
import type EarlyWarningDistrict from './areas/earlyWarning/district';
import type EarlyWarningNotice from './areas/earlyWarning/notice';
import type EarlyWarningSettings from './areas/earlyWarning/settings';
import type EchartsNorms from './areas/echarts/norms';
import type EchartsReport from './areas/echarts/report';
import type EchartsScreen from './areas/echarts/screen';
import type EmpowerAssess from './areas/empower/assess';
import type EmpowerReport from './areas/empower/report';
import type EmpowerTemplate from './areas/empower/template';
import type EmpowerWritten from './areas/empower/written';
import type EvaluatingComments from './areas/evaluating/comments';
import type EvaluatingNorms from './areas/evaluating/norms';
import type EvaluatingEditor from './areas/evaluating/editor';
import type EvaluatingLevels from './areas/evaluating/levels';
import type EvaluatingLibrary from './areas/evaluating/library';
import type EvaluatingPlans from './areas/evaluating/plans';
import type EvaluatingTryIt from './areas/evaluating/tryIt';
import type OperationsArticle from './areas/operations/article';
import type OperationsCourse from './areas/operations/course';
import type OperationsFile from './areas/operations/file';
import type OperationsGoods from './areas/operations/goods';
import type OperationsMedia from './areas/operations/media';
import type OperationsMusic from './areas/operations/music';
import type OperationsOrder from './areas/operations/order';
import type OrganizationDept from './areas/organization/dept';
import type OrganizationUser from './areas/organization/user';
import type PeriodStage from './areas/period/stage';
import type RegistrationFollowUp from './areas/registration/followUp';
import type RegistrationRegistration from './areas/registration/registration';
import type Shell from './areas/shell';
import type StatisticsAnalysis from './areas/statistics/analysis';
import type StatisticsDashboard from './areas/statistics/dashboard';
import type TaskGroupReport from './areas/task/groupReport';
import type TaskTask from './areas/task/task';
import type TaskTeam from './areas/task/team';

type Zh<M extends { zh: object }> = M['zh'];

export type Messages = {
  Datastatistics: { plan: Zh<typeof DatastatisticsPlan> };
  Service: { account: Zh<typeof ServiceAccount> };
  archives: {
    archive: Zh<typeof ArchivesArchive>;
    consent: Zh<typeof ArchivesConsent>;
    form: Zh<typeof ArchivesForm>;
    linkEntry: Zh<typeof ArchivesLinkEntry>;
    person: Zh<typeof ArchivesPerson>;
    rights: Zh<typeof ArchivesRights>;
  };
  authority: { audit: Zh<typeof AuthorityAudit>; menu: Zh<typeof AuthorityMenu>; role: Zh<typeof AuthorityRole> };
  common: Zh<typeof Common>;
  earlyWarning: {
    case: Zh<typeof EarlyWarningCase>;
    district: Zh<typeof EarlyWarningDistrict>;
    notice: Zh<typeof EarlyWarningNotice>;
    settings: Zh<typeof EarlyWarningSettings>;
  };
  echarts: { norms: Zh<typeof EchartsNorms>; report: Zh<typeof EchartsReport>; screen: Zh<typeof EchartsScreen> };
  empower: { assess: Zh<typeof EmpowerAssess>; report: Zh<typeof EmpowerReport>; template: Zh<typeof EmpowerTemplate>; written: Zh<typeof EmpowerWritten> };
  evaluating: {
    comments: Zh<typeof EvaluatingComments>;
    editor: Zh<typeof EvaluatingEditor>;
    levels: Zh<typeof EvaluatingLevels>;
    library: Zh<typeof EvaluatingLibrary>;
    norms: Zh<typeof EvaluatingNorms>;
    plans: Zh<typeof EvaluatingPlans>;
    tryIt: Zh<typeof EvaluatingTryIt>;
  };
  operations: {
    article: Zh<typeof OperationsArticle>;
    course: Zh<typeof OperationsCourse>;
    file: Zh<typeof OperationsFile>;
    goods: Zh<typeof OperationsGoods>;
    media: Zh<typeof OperationsMedia>;
    music: Zh<typeof OperationsMusic>;
    order: Zh<typeof OperationsOrder>;
  };
  organization: { dept: Zh<typeof OrganizationDept>; user: Zh<typeof OrganizationUser> };
  period: { stage: Zh<typeof PeriodStage> };
  registration: { followUp: Zh<typeof RegistrationFollowUp>; registration: Zh<typeof RegistrationRegistration> };
  shell: Zh<typeof Shell>;
  statistics: { analysis: Zh<typeof StatisticsAnalysis>; dashboard: Zh<typeof StatisticsDashboard> };
  task: { groupReport: Zh<typeof TaskGroupReport>; task: Zh<typeof TaskTask>; team: Zh<typeof TaskTeam> };
};

/** i18next's plural suffixes: `inUse_one` and `inUse_other` are asked for as `inUse` with a count. */
type Plural = `_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}`;
type Leaf<K extends string> = K | (K extends `${infer Base}${Plural}` ? Base : never);

/** Every dotted key under T that names a message. */
export type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${Leaf<K>}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

/** Every dotted key under T that names a group of messages (`authority.role`, `task.task.statuses`). */
export type Branches<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? never : `${P}${K}` | Branches<T[K], `${P}${K}.`>;
}[keyof T & string];

/** The group of messages at a dotted path. */
export type At<T, P extends string> = P extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T
    ? At<T[Head], Rest>
    : never
  : P extends keyof T
    ? T[P]
    : never;

/** A group of the console's messages: what useT takes. */
export type Area = Branches<Messages>;
/** The keys under an area, relative to it: KeyOf<'authority.role'> holds 'rolename'. */
export type KeyOf<A extends Area> = Leaves<At<Messages, A>>;
/** Every full key of the console. */
export type MessageKey = Leaves<Messages>;

/**
 * Every group names its keys: a group typed `Record<string, string>` (built at run time) would
 * let any key under it pass, so one is a type error here, naming the group.
 */
type OpenGroups<T, P extends string = ''> = {
  [K in keyof T & string]: string extends K ? P : T[K] extends string ? never : OpenGroups<T[K], `${P}${K}.`>;
}[keyof T & string];
type None<T extends never> = T;
export type NoOpenGroups = None<OpenGroups<Messages>>;

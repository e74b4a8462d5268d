/**
 * THE PAGE REGISTRY: route name (the `name` of a menuTable entry in packages/contract/src/menus.ts)
 * -> the page component, loaded lazily so each page is its own chunk (the sign-in page must
 * never load ECharts or another page's code), and the props this route gives it.
 *
 * TO ADD A PAGE: write `src/pages/<menu>/<routeName>.tsx` (the file is named exactly as the
 * route, so this line is mechanical; dialogs and drawers beside it are PascalCase, `RoleDialog.tsx`)
 * with a default-exported component, and add ONE line below, in menu order, e.g.
 *     roleAdministration: page(() => import('./authority/roleAdministration')),
 * A route that shows another page's component with other props (one population's archives) is a
 * line with those props, not a file: `archives_gl_yf: page(() => import('./archives/ArchiveList'), { appid: … })`.
 * The route, its permission code, menu entry, breadcrumb and tab title already exist; a route
 * without a line here shows the "this page is not built yet" notice.
 * Inside a page, `useCurrentPage()` (layout/current-page.ts) gives its route and title.
 */
import { createElement, lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { PopulationApp } from '@xinli/contract';

/**
 * A registry entry: a lazily loaded component and the props this route gives it. The props are
 * bound when the chunk arrives, so the layout renders every entry alike, without props.
 */
export function page<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  ...[props]: object extends P ? [props?: P] : [props: P]
): LazyExoticComponent<ComponentType> {
  if (!props) return lazy(load as () => Promise<{ default: ComponentType }>);
  const given = props;
  return lazy(async () => {
    const { default: Page } = await load();
    return { default: () => createElement(Page, given) };
  });
}

export const pageRegistry: Record<string, LazyExoticComponent<ComponentType>> = {
  // Data reports (/Datastatistics)
  Datastatistics: page(() => import('./Datastatistics/Datastatistics')),
  Datastatisticst: page(() => import('./Datastatistics/Datastatisticst')),
  // Statistics (/statistics, /statisticsN): every population in scope (00011); elderly-care institutions' older adults (type 004).
  statistics: page(() => import('../features/stats/Dashboard'), { variant: 'general' }),
  usersReportS: page(() => import('./statistics/usersReportS')),
  statisticsN: page(() => import('../features/stats/Dashboard'), { variant: 'elderly' }),
  // Individual assessment (/empower): each population's persons and the assessments given to them, then its reports.
  maternity: page(() => import('./empower/PersonList'), { appid: PopulationApp.maternity }),
  youngsters: page(() => import('./empower/PersonList'), { appid: PopulationApp.students }),
  highPressure: page(() => import('./empower/PersonList'), { appid: PopulationApp.workingAdults }),
  theOld: page(() => import('./empower/PersonList'), { appid: PopulationApp.olderAdults }),
  individualAssessment: page(() => import('./empower/PersonList')),
  usersReport: page(() => import('./empower/ReportList'), { appid: PopulationApp.students }),
  usersReport2: page(() => import('./empower/ReportList'), { appid: PopulationApp.maternity }),
  usersReport3: page(() => import('./empower/ReportList'), { appid: PopulationApp.workingAdults }),
  usersReport4: page(() => import('./empower/ReportList'), { appid: PopulationApp.olderAdults }),
  usersReportCustom: page(() => import('./empower/ReportList'), { appid: PopulationApp.customReport }),
  // Maternity 1.0 (000032): one flat list of the maternity reports, newest first, without usersReport2's stage tabs.
  usersReport01: page(() => import('./empower/ReportList'), { appid: PopulationApp.maternity, flat: true }),
  individualReport: page(() => import('./empower/individualReport')),
  // The custom report's templates and their designer (issue 31 §4).
  reportTemplates: page(() => import('./empower/ReportTemplates')),
  // Group assessment (/task)
  teamManagement: page(() => import('./task/teamManagement')),
  administration: page(() => import('./task/administration')),
  groupReport: page(() => import('./task/groupReport')),
  // Early warning (/earlyWarning)
  earlyWarningLevel: page(() => import('./earlyWarning/earlyWarningLevel')),
  // Archives (/archives): every population's, then each population's; one person's archive (?cusercode=) under four routes.
  archives_gl_all: page(() => import('./archives/ArchiveList')),
  archives_gl_yf: page(() => import('./archives/ArchiveList'), { appid: PopulationApp.maternity }),
  archives_gl_ye: page(() => import('./archives/ArchiveList'), { appid: PopulationApp.students }),
  archives_gl_yg: page(() => import('./archives/ArchiveList'), { appid: PopulationApp.workingAdults }),
  archives_gl_yl: page(() => import('./archives/ArchiveList'), { appid: PopulationApp.olderAdults }),
  archivesyh1: page(() => import('./archives/ArchiveDetail')),
  archivesyh2: page(() => import('./archives/ArchiveDetail')),
  archivesyh3: page(() => import('./archives/ArchiveDetail')),
  archivesyh4: page(() => import('./archives/ArchiveDetail')),
  // Plan management (/evaluating)
  newInstitutionalEvaluation: page(() => import('./evaluating/newInstitutionalEvaluation')),
  evaluationScale: page(() => import('./evaluating/evaluationScale')),
  scaleComments: page(() => import('./evaluating/scaleComments')),
  scaleNorms: page(() => import('./evaluating/scaleNorms')),
  // Consultation (/registration)
  registrationForm: page(() => import('./registration/registrationForm')),
  followUpManagement: page(() => import('./registration/followUpManagement')),
  // Providers (/Service): institutions (schools, hospitals, employers, elderly-care homes, 00021), service providers (type 005, 00022).
  terminal: page(() => import('./Service/AccountsPage'), { kind: 'institution' }),
  usersManager: page(() => import('./Service/AccountsPage'), { kind: 'provider' }),
  // Permission management (/authority)
  roleAdministration: page(() => import('./authority/roleAdministration')),
  earlyWarningC: page(() => import('./authority/earlyWarningC')),
  auditLog: page(() => import('./authority/auditLog')),
  // Administration (/organization)
  dept: page(() => import('./organization/dept')),
  user: page(() => import('./organization/user')),
  // Operations (/operations)
  goodsManagement: page(() => import('./operations/goodsManagement')),
  dashboards: page(() => import('./operations/dashboards')),
  musicManagement: page(() => import('./operations/musicManagement')),
  cloudClassroom: page(() => import('./operations/cloudClassroom')),
  fileUpload: page(() => import('./operations/fileUpload')),
  orderManagement: page(() => import('./operations/orderManagement')),
  // Hidden pages (/echarts/web, /period/periodManagement)
  echartsWeb: page(() => import('./echarts/echartsWeb')),
  periodManagement: page(() => import('./period/periodManagement')),
};

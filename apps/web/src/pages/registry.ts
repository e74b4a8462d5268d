/**
 * THE PAGE REGISTRY: route name (the `name` of a menuTable entry in packages/contract/src/menus.ts)
 * -> the page component, loaded lazily so each page is its own chunk (the sign-in page must
 * never load ECharts or another page's code).
 *
 * TO ADD A PAGE: write `src/pages/<menu>/<routeName>.tsx` (the file is named exactly as the
 * route, so this line is mechanical; dialogs and drawers beside it are PascalCase, `RoleDialog.tsx`)
 * with a default-exported component, and add ONE line below, in menu order, e.g.
 *     roleAdministration: lazy(() => import('./authority/roleAdministration')),
 * The route, its permission code, menu entry, breadcrumb and tab title already exist; a route
 * without a line here shows the "this page is not built yet" notice.
 * Inside a page, `useCurrentPage()` (layout/current-page.ts) gives its route and title.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export const pageRegistry: Record<string, LazyExoticComponent<ComponentType>> = {
  // Data reports (/Datastatistics)
  Datastatistics: lazy(() => import('./Datastatistics/Datastatistics')),
  Datastatisticst: lazy(() => import('./Datastatistics/Datastatisticst')),
  // Statistics (/statistics, /statisticsN)
  statistics: lazy(() => import('./statistics/statistics')),
  usersReportS: lazy(() => import('./statistics/usersReportS')),
  statisticsN: lazy(() => import('./statistics/statisticsN')),
  // Individual assessment (/empower)
  maternity: lazy(() => import('./empower/maternity')),
  youngsters: lazy(() => import('./empower/youngsters')),
  highPressure: lazy(() => import('./empower/highPressure')),
  theOld: lazy(() => import('./empower/theOld')),
  individualAssessment: lazy(() => import('./empower/individualAssessment')),
  usersReport: lazy(() => import('./empower/usersReport')),
  usersReport2: lazy(() => import('./empower/usersReport2')),
  usersReport3: lazy(() => import('./empower/usersReport3')),
  usersReport4: lazy(() => import('./empower/usersReport4')),
  usersReportCustom: lazy(() => import('./empower/usersReportCustom')),
  usersReport01: lazy(() => import('./empower/usersReport01')),
  individualReport: lazy(() => import('./empower/individualReport')),
  // Group assessment (/task)
  teamManagement: lazy(() => import('./task/teamManagement')),
  administration: lazy(() => import('./task/administration')),
  groupReport: lazy(() => import('./task/groupReport')),
  // Early warning (/earlyWarning)
  earlyWarningLevel: lazy(() => import('./earlyWarning/earlyWarningLevel')),
  // Archives (/archives)
  archives_gl_all: lazy(() => import('./archives/archives_gl_all')),
  archives_gl_yf: lazy(() => import('./archives/archives_gl_yf')),
  archives_gl_ye: lazy(() => import('./archives/archives_gl_ye')),
  archives_gl_yg: lazy(() => import('./archives/archives_gl_yg')),
  archives_gl_yl: lazy(() => import('./archives/archives_gl_yl')),
  archivesyh1: lazy(() => import('./archives/archivesyh1')),
  archivesyh2: lazy(() => import('./archives/archivesyh2')),
  archivesyh3: lazy(() => import('./archives/archivesyh3')),
  archivesyh4: lazy(() => import('./archives/archivesyh4')),
  // Plan management (/evaluating)
  newInstitutionalEvaluation: lazy(() => import('./evaluating/newInstitutionalEvaluation')),
  evaluationScale: lazy(() => import('./evaluating/evaluationScale')),
  scaleComments: lazy(() => import('./evaluating/scaleComments')),
  // Consultation (/registration)
  registrationForm: lazy(() => import('./registration/registrationForm')),
  followUpManagement: lazy(() => import('./registration/followUpManagement')),
  // Providers (/Service)
  terminal: lazy(() => import('./Service/terminal')),
  usersManager: lazy(() => import('./Service/usersManager')),
  // Permission management (/authority)
  roleAdministration: lazy(() => import('./authority/roleAdministration')),
  earlyWarningC: lazy(() => import('./authority/earlyWarningC')),
  // Administration (/organization)
  dept: lazy(() => import('./organization/dept')),
  user: lazy(() => import('./organization/user')),
  // Operations (/operations)
  goodsManagement: lazy(() => import('./operations/goodsManagement')),
  dashboards: lazy(() => import('./operations/dashboards')),
  musicManagement: lazy(() => import('./operations/musicManagement')),
  cloudClassroom: lazy(() => import('./operations/cloudClassroom')),
  fileUpload: lazy(() => import('./operations/fileUpload')),
  orderManagement: lazy(() => import('./operations/orderManagement')),
  // Hidden pages (/echarts/web, /period/periodManagement)
  echartsWeb: lazy(() => import('./echarts/echartsWeb')),
  periodManagement: lazy(() => import('./period/periodManagement')),
};

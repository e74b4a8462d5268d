/**
 * The menu table of SPEC §2: every route of the console with its permission code. The server
 * seeds its menu table from this list and the console builds its routes from it, so a route
 * and the code that guards it are written down exactly once.
 */
export interface MenuNode {
  path: string;
  name: string;
  zh: string;
  en: string;
  /** Permission code; undefined means no role restriction. */
  code?: string;
  hidden?: boolean;
  alwaysShow?: boolean;
  /** Detail pages highlight another menu entry. */
  activeMenu?: string;
  /**
   * A component permission (SPEC §6 "menu or component code"): grantable through roles like a
   * page, never a route. The console leaves it out of routes and menus.
   */
  component?: boolean;
  /**
   * A code the built-in administrator role (key 'admin') does not give by itself: the account
   * holds it as the owner, and a staff user gets it only from a role that lists it (issue 27 §2).
   */
  ownerOnly?: boolean;
  children?: MenuNode[];
}

const page = (path: string, zh: string, en: string, code?: string, extra: Partial<MenuNode> = {}): MenuNode => ({
  path,
  name: path,
  zh,
  en,
  code,
  ...extra,
});

export const menuTable: MenuNode[] = [
  {
    path: '/Datastatistics',
    name: 'Datastatistics',
    zh: '数据报表',
    en: 'Data reports',
    code: '00051',
    children: [
      page('Datastatistics', '计划授权明细', 'Grant details', '00052'),
      page('Datastatisticst', '计划授权统计', 'Grant statistics', '00053'),
    ],
  },
  {
    path: '/statistics',
    name: 'statistics1',
    zh: '统计分析',
    en: 'Statistics',
    code: '00010',
    children: [page('statistics', '数据分析', 'Data analysis', '00011'), page('usersReportS', '报告分析', 'Report analysis', '00012')],
  },
  {
    path: '/statisticsN',
    name: 'statisticsN',
    zh: '统计分析',
    en: 'Statistics',
    code: '00010',
    children: [page('statisticsN', '数据分析', 'Data analysis', '00011')],
  },
  {
    path: '/empower',
    name: 'empower',
    zh: '个体测评',
    en: 'Individuals',
    code: '00018',
    alwaysShow: true,
    children: [
      page('maternity', '孕产妇', 'Maternity', '0000000011'),
      page('youngsters', '青少年学生', 'Students', '0000000022'),
      page('highPressure', '高压职业人群', 'Working adults', '0000000033'),
      page('theOld', '中老年人', 'Older adults', '0000000044'),
      page('individualAssessment', '个体管理', 'Person list', '001801'),
      page('individualReport', 'AI个体报告', 'AI person report', '001802'),
      page('usersReport01', '孕产妇1.0', 'Maternity 1.0', '000032'),
      page('usersReport', '学生报告', 'Student reports', '0000000022', { hidden: true, activeMenu: '/empower/youngsters' }),
      page('usersReport2', '孕产妇报告', 'Maternity reports', '0000000011', { hidden: true, activeMenu: '/empower/maternity' }),
      page('usersReport3', '职业人群报告', 'Working-adult reports', '0000000033', { hidden: true, activeMenu: '/empower/highPressure' }),
      page('usersReport4', '中老年人报告', 'Older-adult reports', '0000000044', { hidden: true, activeMenu: '/empower/theOld' }),
      page('usersReportCustom', '定制报告', 'Custom reports', '001802', { hidden: true, activeMenu: '/empower/individualReport' }),
      // Issue 31 §4: the custom report's templates (REPORT_TEMPLATE_CODE in actions/report-templates.ts).
      page('reportTemplates', '报告模板', 'Report templates', '0018021'),
    ],
  },
  {
    path: '/task',
    name: 'task',
    zh: '团体测评',
    en: 'Groups',
    code: '00040',
    children: [
      page('teamManagement', '团体管理', 'Group list', '00042'),
      page('administration', '任务管理', 'Tasks', '00041'),
      page('groupReport', 'AI团体报告', 'AI group report', '00043'),
    ],
  },
  { path: '/echarts/web', name: 'echartsWeb', zh: '详情', en: 'Detail', hidden: true },
  {
    path: '/earlyWarning',
    name: 'earlyWarning',
    zh: '预警管理',
    en: 'Warnings',
    code: '00013',
    children: [
      { path: 'earlyWarning', name: 'earlyWarningLevel', zh: '危机预警', en: 'Crisis warning', code: '00046' },
      // Component code: the settings that decide what raises or escalates a warning
      // (WARNING_SETTINGS_CODE in actions/warnings.ts); working cases (00046) does not include it.
      page('warningSettings', '预警规则设置', 'Warning rule settings', '0004601', { hidden: true, component: true }),
    ],
  },
  {
    path: '/archives',
    name: 'archives',
    zh: '档案管理',
    en: 'Archives',
    code: '00008',
    children: [
      page('archives_gl_all', '全部档案', 'All', '00049'),
      page('archives_gl_yf', '孕产妇档案', 'Maternity', '000000001'),
      page('archives_gl_ye', '学生档案', 'Students', '000000002'),
      page('archives_gl_yg', '高压职业档案', 'Working adults', '000000003'),
      page('archives_gl_yl', '中老年档案', 'Elderly', '000000004'),
      page('archivesyh1', '孕产妇档案详情', 'Maternity archive', '000000001', { hidden: true, activeMenu: '/archives/archives_gl_yf' }),
      page('archivesyh2', '学生档案详情', 'Student archive', '000000002', { hidden: true, activeMenu: '/archives/archives_gl_ye' }),
      page('archivesyh3', '高压职业档案详情', 'High-pressure archive', '000000003', {
        hidden: true,
        activeMenu: '/archives/archives_gl_yg',
      }),
      page('archivesyh4', '中老年档案详情', 'Elderly archive', '000000004', { hidden: true, activeMenu: '/archives/archives_gl_yl' }),
      // Component code: full phone and ID numbers of persons (PERSON_IDENTITY_CODE in actions/persons.ts).
      page('personIdentity', '查看完整手机号与证件号', 'See full phone and ID numbers', '0000801', { hidden: true, component: true }),
    ],
  },
  {
    path: '/evaluating',
    name: 'evaluating',
    zh: '计划管理',
    en: 'Plans',
    code: '00001',
    children: [
      page('newInstitutionalEvaluation', '计划库', 'Plan library', '00002'),
      page('evaluationScale', '量表库', 'Scale library', '00003'),
      page('scaleComments', '评语库', 'Comment library', '00004'),
      // Issue 31 §2 (not in SPEC §2): the norms of the instruments, kept by the super account.
      page('scaleNorms', '常模库', 'Norms', '00055'),
    ],
  },
  {
    path: '/registration',
    name: 'registration',
    zh: '咨询管理',
    en: 'Consultation',
    code: '00015',
    children: [
      page('registrationForm', '登记表管理', 'Registrations', '00016'),
      page('followUpManagement', '随访管理', 'Follow-ups', '00017'),
    ],
  },
  {
    path: '/Service',
    name: 'Service',
    zh: '服务商管理',
    en: 'Providers',
    code: '00020',
    children: [
      page('terminal', '机构管理', 'Institutions', '00021'),
      page('usersManager', '服务商管理', 'Providers', '00022'),
    ],
  },
  {
    path: '/authority',
    name: 'authority',
    zh: '权限管理',
    en: 'Permissions',
    code: '00023',
    children: [
      page('roleAdministration', '角色管理', 'Roles', '000311'),
      page('earlyWarningC', '菜单管理', 'Menus', '00031'),
      // Issue 30 §2 (not in SPEC §2): the audit log, its filters, detail, export and chain check.
      page('auditLog', '审计日志', 'Audit log', '000314'),
    ],
  },
  {
    path: '/organization',
    name: 'organization',
    zh: '行政管理',
    en: 'Organization',
    code: '00048',
    children: [
      page('dept', '部门管理', 'Departments', '000312'),
      page('user', '用户管理', 'Users', '000313'),
      // Component code: set the password of another account or staff user (SET_PASSWORD_CODE in
      // actions/auth.ts); held by the accounts themselves, never given by the admin role's key.
      page('setPassword', '设置他人密码', 'Set others’ passwords', '0003131', { hidden: true, component: true, ownerOnly: true }),
    ],
  },
  {
    path: '/operations',
    name: 'operations',
    zh: '运营管理',
    en: 'Operations',
    code: '00025',
    children: [
      page('goodsManagement', '商品管理', 'Goods', '00026'),
      page('dashboards', '推文管理', 'Articles', '00028'),
      page('musicManagement', '音乐管理', 'Music', '00039'),
      page('cloudClassroom', '云课堂', 'Cloud classroom', '00050'),
      page('fileUpload', '文件上传', 'File upload', '00030'),
      // Not in SPEC §2 (its order calls are not shown): the order list, history and refunds of issue 16.
      page('orderManagement', '订单管理', 'Orders', '00054'),
    ],
  },
  {
    path: '/period/periodManagement',
    name: 'periodManagement',
    zh: '测评计划管理',
    en: 'Assessment plan management',
    code: '00029',
    hidden: true,
  },
];

/** Every code of the menu table, parents first, without repeats. */
export function allMenuCodes(table: MenuNode[] = menuTable): string[] {
  const codes = new Set<string>();
  const walk = (nodes: MenuNode[]) =>
    nodes.forEach((n) => {
      if (n.code) codes.add(n.code);
      if (n.children) walk(n.children);
    });
  walk(table);
  return [...codes];
}

/** Codes the built-in administrator role does not give by itself (`ownerOnly`). */
export function ownerOnlyCodes(table: MenuNode[] = menuTable): Set<string> {
  const codes = new Set<string>();
  const walk = (nodes: MenuNode[]) =>
    nodes.forEach((n) => {
      if (n.code && n.ownerOnly) codes.add(n.code);
      if (n.children) walk(n.children);
    });
  walk(table);
  return codes;
}

/** Full path of a child route ("/authority" + "roleAdministration"). */
export function childPath(parent: MenuNode, child: MenuNode): string {
  return child.path.startsWith('/') ? child.path : `${parent.path.replace(/\/$/, '')}/${child.path}`;
}

/**
 * Login-as markers (SPEC §2): accounts whose marker is set land on a fixed page.
 */
export const loginAsLanding: Record<string, string> = {
  FW01: '/earlyWarning/earlyWarning',
  JYJ: '/statistics/statistics',
};

/**
 * A readable title of each action in both languages, for the audit log (issue 30 §2): the page
 * its permission code opens (from the menu table) and what it does there (from the verb its name
 * starts with), e.g. as.m.order.exportOrders → 订单管理 · 导出 / Orders · export. Actions a
 * page title does not describe (sign-in, reveals, login-as) have their own title below.
 * Zod-free: the console's audit page reads it without the catalogue.
 */
import { actionTable } from './action-table.js';
import { menuTable, type MenuNode } from './menus.js';

export interface Title {
  zh: string;
  en: string;
}

const OWN_TITLES: Record<string, Title> = {
  'as.m.user.login': { zh: '登录', en: 'Sign-in' },
  lockout: { zh: '账号锁定', en: 'Account locked' },
  'as.m.user.logout': { zh: '退出登录', en: 'Sign-out' },
  'as.m.user.loginAs': { zh: '代登录机构', en: 'Login-as an institution' },
  'as.m.user.updateMUser': { zh: '修改账号资料或密码', en: 'Change account details or password' },
  'as.m.system.ping': { zh: '会话检查', en: 'Session check' },
};

/** What an action does, by the verb its last name part starts with. */
const VERBS: [RegExp, Title][] = [
  [/^(get|select|list|query|find|show|preview|view)/, { zh: '查看', en: 'view' }],
  [/^(insert|add|create|new|generate|copy)/, { zh: '新增', en: 'add' }],
  [/^(delete|remove|clear|revoke|undo)/, { zh: '删除', en: 'delete' }],
  [/^(export|download)/, { zh: '导出', en: 'export' }],
  [/^(import|upload)/, { zh: '导入', en: 'import' }],
  [/^(reveal)/, { zh: '查看完整信息', en: 'reveal' }],
  [/^(enable|turn)/, { zh: '启用或停用', en: 'enable or disable' }],
  [/^(reset)/, { zh: '重置', en: 'reset' }],
  [/^(refund)/, { zh: '退款', en: 'refund' }],
  [/^(cancel)/, { zh: '取消', en: 'cancel' }],
  [/^(submit|save|sign|confirm|approve|acknowledge|close|mark|flag|assign|authorize|publish|start|enter|queue|rescreen|batch)/, { zh: '提交', en: 'submit' }],
  [/^(update|set|edit|change|move)/, { zh: '修改', en: 'change' }],
];

const pageOfCode = new Map<string, Title>();
const walk = (nodes: MenuNode[]) =>
  nodes.forEach((n) => {
    if (n.code && !pageOfCode.has(n.code)) pageOfCode.set(n.code, { zh: n.zh, en: n.en });
    if (n.children) walk(n.children);
  });
walk(menuTable);

/** The title of an action (or of another event the log records, such as a lockout); the name itself when it is unknown. */
export function actionTitle(name: string): Title {
  const own = OWN_TITLES[name];
  if (own) return own;
  const traits = (actionTable as Record<string, { access: unknown } | undefined>)[name];
  if (!traits) return { zh: name, en: name };
  const access = traits.access as string | { codes: string[] };
  const where = typeof access === 'object' ? pageOfCode.get(access.codes[0] ?? '') : undefined;
  const last = name.split('.').at(-1) ?? '';
  const verb = VERBS.find(([re]) => re.test(last))?.[1] ?? { zh: '操作', en: 'act' };
  const place = where ?? (name.startsWith('as.c.') ? { zh: '受测者端', en: 'Respondent' } : { zh: '账号', en: 'Account' });
  return { zh: `${place.zh} · ${verb.zh}`, en: `${place.en} · ${verb.en}` };
}

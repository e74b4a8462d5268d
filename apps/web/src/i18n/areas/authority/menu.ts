import { defineArea } from '../../area';

/** Menu management (authority.menu.*). */
export default defineArea({
  zh: {
    title: '菜单名称',
    code: '权限编码',
    path: '路由地址',
    name: '路由名称',
    otherTitle: '英文名称',
    hidden: '可见',
    shown: '显示',
    hiddenTag: '隐藏',
    note: '菜单与权限编码由系统定义；在“角色管理”中为角色分配菜单权限。',
    count: '共 {{count}} 个菜单',
    count_one: '共 {{count}} 个菜单',
  },
  en: {
    title: 'Menu title',
    code: 'Permission code',
    path: 'Route path',
    name: 'Route name',
    otherTitle: 'Chinese title',
    hidden: 'Visible',
    shown: 'Shown',
    hiddenTag: 'Hidden',
    note: 'Menus and their permission codes are defined by the system; give them to roles in Role management.',
    count: '{{count}} menus',
    count_one: '{{count}} menu',
  },
});

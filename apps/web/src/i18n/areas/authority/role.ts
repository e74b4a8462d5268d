import { defineArea } from '../../area';

/** Role management (authority.role.*). */
export default defineArea({
  zh: {
    rolename: '角色名称',
    rolekey: '权限字符',
    rolekeyTip: '英文字母开头，仅含字母、数字、_ . -；admin 为内置管理员保留',
    rolekeyFormat: '权限字符须以字母开头，仅含字母、数字、_ . -',
    usercount: '用户数',
    menus: '菜单权限',
    addTitle: '添加角色',
    editTitle: '修改角色',
    builtIn: '内置',
    builtInTip: '内置管理员角色拥有本机构的全部权限，不能修改其权限字符、菜单和状态。',
    checkAll: '全选/全不选',
    linkage: '父子联动',
    menusLoading: '正在加载菜单…',
    noMenus: '没有可分配的菜单权限',
    inUse: '该角色已分配给 {{count}} 个用户，请先在用户管理中取消分配',
  },
  en: {
    rolename: 'Role name',
    rolekey: 'Role key',
    rolekeyTip: 'Starts with a letter; letters, digits and _ . - only; "admin" is reserved',
    rolekeyFormat: 'The key starts with a letter and holds only letters, digits and _ . -',
    usercount: 'Users',
    menus: 'Menu permissions',
    addTitle: 'Add role',
    editTitle: 'Edit role',
    builtIn: 'Built-in',
    builtInTip: 'The built-in administrator role holds every code of its institution; its key, menus and state cannot be changed.',
    checkAll: 'Check all / none',
    linkage: 'Link parent and children',
    menusLoading: 'Loading menus…',
    noMenus: 'No menu permissions to give',
    inUse: 'This role is held by {{count}} user(s); remove it from them in User management first',
  },
});

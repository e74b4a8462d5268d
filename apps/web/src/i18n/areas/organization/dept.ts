import { defineArea } from '../../area';

/** Department management (organization.dept.*). */
export default defineArea({
  zh: {
    deptname: '部门名称',
    parent: '上级部门',
    parentNone: '无（顶级部门）',
    leader: '负责人',
    phonenumber: '联系电话',
    email: '邮箱',
    usercount: '用户数',
    addTitle: '添加部门',
    editTitle: '修改部门',
    addChild: '新增下级',
    phoneFormat: '请输入正确的电话号码',
    emailFormat: '请输入正确的邮箱地址',
  },
  en: {
    deptname: 'Department',
    parent: 'Parent department',
    parentNone: 'None (top level)',
    leader: 'Leader',
    phonenumber: 'Phone',
    email: 'Email',
    usercount: 'Users',
    addTitle: 'Add department',
    editTitle: 'Edit department',
    addChild: 'Add child',
    phoneFormat: 'Enter a valid phone number',
    emailFormat: 'Enter a valid email address',
  },
});

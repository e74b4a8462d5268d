import type { HandlerMap } from '../../http/handlers.js';
import { menuHandlers } from './menus.js';
import { roleHandlers } from './roles.js';
import { deptHandlers } from './depts.js';
import { userHandlers } from './users.js';

/** Permission management (menus, roles) and administration (departments, staff users). */
export const systemHandlers = {
  ...menuHandlers,
  ...roleHandlers,
  ...deptHandlers,
  ...userHandlers,
} satisfies HandlerMap;

import type { HandlerMap } from '../../http/handlers.js';
import { menuHandlers } from './menus.js';
import { roleHandlers } from './roles.js';
import { deptHandlers } from './depts.js';
import { userHandlers } from './users.js';
import { institutionHandlers } from './institutions.js';

/** Permission management (menus, roles) and administration (departments, staff users). */
export const systemHandlers = {
  ...menuHandlers,
  ...roleHandlers,
  ...deptHandlers,
  ...userHandlers,
  ...institutionHandlers,
} satisfies HandlerMap;

import type { HandlerMap } from '../../http/handlers.js';
import { logHandlers } from './log.js';

/** The audit log: its page's list, entry, export and chain check. */
export const auditHandlers = {
  ...logHandlers,
} satisfies HandlerMap;

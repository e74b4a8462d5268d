import type { HandlerMap } from '../../http/handlers.js';

export const plansHandlers = {} satisfies HandlerMap;

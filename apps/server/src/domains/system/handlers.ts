import type { HandlerMap } from '../../http/handlers.js';

export const systemHandlers = {} satisfies HandlerMap;

import type { HandlerMap } from '../../http/handlers.js';

export const scalesHandlers = {} satisfies HandlerMap;

import type { HandlerMap } from '../../http/handlers.js';
import { stageHandlers } from './stages.js';
import { planHandlers } from './plan-handlers.js';

/** Exam categories and stages, plans and their authorisations. */
export const plansHandlers = { ...stageHandlers, ...planHandlers } satisfies HandlerMap;

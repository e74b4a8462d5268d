import type { HandlerMap } from '../../http/handlers.js';
import { stageHandlers } from './stages.js';
import { planHandlers } from './plan-handlers.js';
import { nulGuarded } from '../scales/access.js';

/** Exam categories and stages, plans and their authorisations. */
export const plansHandlers: HandlerMap = nulGuarded({ ...stageHandlers, ...planHandlers } satisfies HandlerMap);

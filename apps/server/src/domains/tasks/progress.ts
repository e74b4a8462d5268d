import type { HandlerMap } from '../../http/handlers.js';
import { notImplemented } from './stub.js';

/** Progress of a task (issue 14, part 3): owned by the progress change. */
export const progressHandlers = {
  'as.m.assess.getAssessTaskProgress': async () => notImplemented(),
  'as.m.assess.getAssessTaskRosterProgress': async () => notImplemented(),
  'as.m.assess.exportAssessTaskRosterProgress': async () => notImplemented(),
} satisfies HandlerMap;

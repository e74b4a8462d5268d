import { actionNames } from '@xinli/contract';
import type { HandlerMap } from '../http/handlers.js';
import type { JobHandlers } from '../kit/jobs/index.js';
import { authHandlers } from './auth/handlers.js';
import { accountHandlers } from './accounts/handlers.js';
import { appHandlers } from './apps/handlers.js';
import { systemHandlers } from './system/handlers.js';
import { scalesHandlers } from './scales/handlers.js';
import { plansHandlers } from './plans/handlers.js';
import { personHandlers } from './persons/handlers.js';
import { assessmentHandlers } from './assessments/handlers.js';
import { writtenReportHandlers } from './reports/written/handlers.js';
import { WRITTEN_JOB, writtenReportJob } from './reports/written/store.js';

/** Every domain's handlers. A new domain adds one line here. */
export const handlers: HandlerMap = {
  ...authHandlers,
  ...accountHandlers,
  ...appHandlers,
  ...systemHandlers,
  ...scalesHandlers,
  ...plansHandlers,
  ...personHandlers,
  ...assessmentHandlers,
  ...writtenReportHandlers,
};

/** Every domain's background job kinds (kit/jobs). A domain with jobs adds one line here. */
export const jobHandlers: JobHandlers = {
  [WRITTEN_JOB]: writtenReportJob,
};

/** Catalogued actions without a handler; the server will not start while this is non-empty. */
export function missingHandlers(map: HandlerMap = handlers): string[] {
  return actionNames.filter((name) => typeof map[name] !== 'function');
}

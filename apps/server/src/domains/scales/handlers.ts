import type { HandlerMap } from '../../http/handlers.js';
import { formHandlers } from './forms.js';
import { conventionHandlers } from './conventions.js';
import { excelHandlers } from './excel-handlers.js';
import { quotaHandlers } from './quota.js';
import { normHandlers } from './norms.js';

/** The scale library: forms and their versions, score bands (quota options), comments, files, conventions, norms. */
export const scalesHandlers = { ...formHandlers, ...excelHandlers, ...quotaHandlers, ...conventionHandlers, ...normHandlers } satisfies HandlerMap;

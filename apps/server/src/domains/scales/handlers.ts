import type { HandlerMap } from '../../http/handlers.js';
import { formHandlers } from './forms.js';
import { conventionHandlers } from './conventions.js';
import { excelHandlers } from './excel-handlers.js';
import { quotaHandlers } from './quota.js';

/** The scale library: forms and their versions, score bands (quota options), comments, files. */
export const scalesHandlers = { ...formHandlers, ...excelHandlers, ...quotaHandlers, ...conventionHandlers } satisfies HandlerMap;

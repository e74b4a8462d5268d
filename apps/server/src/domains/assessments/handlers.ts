import type { HandlerMap } from '../../http/handlers.js';
import { codeHandlers } from './codes.js';
import { reportHandlers } from './reports.js';
import { respondentHandlers } from './respondent.js';

/** Giving assessments (codes), the respondent channel (as.c.*) and reading reports. */
export const assessmentHandlers = { ...codeHandlers, ...respondentHandlers, ...reportHandlers } satisfies HandlerMap;

import type { HandlerMap } from '../../http/handlers.js';
import { codeHandlers } from './codes.js';
import { respondentHandlers } from './respondent.js';

/** Giving assessments (codes) and the respondent channel (as.c.*); reading reports is domains/reports. */
export const assessmentHandlers = { ...codeHandlers, ...respondentHandlers } satisfies HandlerMap;

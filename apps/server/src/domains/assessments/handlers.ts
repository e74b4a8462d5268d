import type { HandlerMap } from '../../http/handlers.js';
import { codeHandlers } from './codes.js';
import { respondentHandlers } from './respondent.js';
import { respondentConsentHandlers } from './respondent-consent.js';

/** Giving assessments (codes) and the respondent channel (as.c.*); reading reports is domains/reports. */
export const assessmentHandlers = { ...codeHandlers, ...respondentHandlers, ...respondentConsentHandlers } satisfies HandlerMap;

import type { HandlerMap } from '../../http/handlers.js';
import { reportActionHandlers } from './actions.js';
import { reportExportHandlers } from './exports.js';
import { reportHandlers } from './reports.js';

/** Reading reports, their filters, comments, visibility, attempts and exports (SPEC §7 Exams/reports). */
export const reportsHandlers = { ...reportHandlers, ...reportActionHandlers, ...reportExportHandlers } satisfies HandlerMap;

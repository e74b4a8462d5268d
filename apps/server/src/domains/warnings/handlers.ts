import type { HandlerMap } from '../../http/handlers.js';
import { caseHandlers } from './case-actions.js';
import { followUpHandlers } from './follow-ups.js';
import { notificationHandlers } from './notifications.js';
import { settingHandlers } from './settings.js';
import { exportHandlers } from './export.js';
import { interventionHandlers } from './interventions.js';
import { caseSummaryHandlers } from './summary.js';

/** Warnings: cases and their follow-ups, the notices, the settings, the export and the statistics. */
export const warningsHandlers = {
  ...caseHandlers,
  ...followUpHandlers,
  ...notificationHandlers,
  ...settingHandlers,
  ...exportHandlers,
  ...interventionHandlers,
  ...caseSummaryHandlers,
} satisfies HandlerMap;

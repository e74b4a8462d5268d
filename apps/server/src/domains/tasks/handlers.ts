import type { HandlerMap } from '../../http/handlers.js';
import { progressHandlers } from './progress.js';
import { reportVisibilityHandlers } from './report-visibility.js';
import { rosterImportHandlers } from './roster-import.js';
import { taskCrudHandlers } from './tasks.js';
import { teamHandlers } from './teams.js';

/** Group assessment (issue 14): teams and rosters, tasks, progress, the group report's visibility. */
export const taskHandlers = {
  ...teamHandlers,
  ...rosterImportHandlers,
  ...taskCrudHandlers,
  ...progressHandlers,
  ...reportVisibilityHandlers,
} satisfies HandlerMap;

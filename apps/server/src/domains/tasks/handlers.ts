import type { HandlerMap } from '../../http/handlers.js';
import { progressHandlers } from './progress.js';
import { reportVisibilityHandlers } from './report-visibility.js';
import { notImplemented } from './stub.js';

const pending = async () => notImplemented();

/** Group assessment: teams, rosters, tasks (issue 14). */
export const taskHandlers = {
  'as.m.assess.getAssessTeamPageList': pending,
  'as.m.assess.insertAssessTeam': pending,
  'as.m.assess.deleteAssessTeam': pending,
  'as.m.assess.getAssessTeamRoster': pending,
  'as.m.assess.insertAssessTeamCUser': pending,
  'as.m.assess.batchDeleteAssessTeamCUser': pending,
  'as.m.assess.getAssessTeamRosterTemplate': pending,
  'as.m.assess.importAssessTeamRoster': pending,
  'as.m.assess.getSchoolList': pending,
  'as.m.assess.getYearList': pending,
  'as.m.assess.getTermList': pending,
  'as.m.assess.getGradeList': pending,
  'as.m.assess.getTaskList': pending,
  'as.m.assess.insertAssessTask': pending,
  'as.m.assess.updateAssessTask': pending,
  'as.m.assess.deleteAssessTask': pending,
  'as.m.assess.insertAssessTeamRosterTask': pending,
  'as.m.assess.getAssessTaskRoster': pending,
  'as.m.assess.deleteAssessTaskCUser': pending,
  ...progressHandlers,
  ...reportVisibilityHandlers,
} satisfies HandlerMap;

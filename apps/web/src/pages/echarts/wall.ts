/**
 * The big screen's place: /echarts/web without `reportid` is the wall display (full screen,
 * outside the main layout) for a caller who may read the statistics; with `reportid` it is the
 * report page. App.tsx (the layout) and the page decide with this one rule.
 */
import type { ActionName } from '@xinli/contract';

export const WALL_PATH = '/echarts/web';
/** The figure every big screen shows: a caller who may read it gets the wall display. */
export const WALL_ACTION: ActionName = 'as.m.assess.getAssessCount';

export function isWallDisplay(pathname: string, search: string, can: (a: ActionName) => boolean): boolean {
  return pathname === WALL_PATH && !new URLSearchParams(search).has('reportid') && can(WALL_ACTION);
}

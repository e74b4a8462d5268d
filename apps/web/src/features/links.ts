/**
 * Links to the case page, apart from warning-ui: the layout's notification bell uses them, and
 * importing warning-ui would put the warning domain's schemas into every console page.
 */
export const CASE_PAGE = '/earlyWarning/earlyWarning';
/** The case page with the case's drawer open. */
export const caseLink = (caseid: string) => `${CASE_PAGE}?state=all&caseid=${encodeURIComponent(caseid)}`;

import type { z } from 'zod';
import type { ActionDef } from './catalogue-kit.js';
import { authActions } from './actions/auth.js';
import { appActions } from './actions/apps.js';
import { systemActions } from './actions/system.js';
import { scaleActions } from './actions/scales.js';
import { planActions } from './actions/plans.js';
import { examActions } from './actions/exam.js';
import { reportActions } from './actions/reports.js';
import { personActions } from './actions/persons.js';
import { accountActions } from './actions/accounts.js';
import { registrationActions } from './actions/registration.js';
import { warningActions } from './actions/warnings.js';
import { reportDocumentActions } from './actions/report-documents.js';
import { writtenReportActions } from './actions/written-reports.js';
import { taskActions } from './actions/tasks.js';
import { taskEntryActions } from './actions/task-entry.js';
import { groupReportActions } from './actions/group-report.js';
import { statisticsActions } from './actions/statistics.js';
import { fileActions } from './actions/files.js';
import { articleActions } from './actions/articles.js';
import { orderActions } from './actions/orders.js';
import { mediaActions } from './actions/media.js';
import { auditActions } from './actions/audit.js';
import { consentActions } from './actions/consent.js';
import { normActions } from './actions/norms.js';
import { reportTemplateActions } from './actions/report-templates.js';

/**
 * The action catalogue: every call the console may make. Adding an action means adding one
 * entry to its domain's file here and one handler on the server; the server refuses to start
 * while an entry has no handler.
 */
export const catalogue = {
  ...authActions,
  ...appActions,
  ...systemActions,
  ...scaleActions,
  ...planActions,
  ...examActions,
  ...reportActions,
  ...personActions,
  ...accountActions,
  ...registrationActions,
  ...warningActions,
  ...reportDocumentActions,
  ...writtenReportActions,
  ...taskActions,
  ...taskEntryActions,
  ...groupReportActions,
  ...statisticsActions,
  ...fileActions,
  ...articleActions,
  ...orderActions,
  ...mediaActions,
  ...auditActions,
  ...consentActions,
  ...normActions,
  ...reportTemplateActions,
} satisfies Record<string, ActionDef>;

export type Catalogue = typeof catalogue;
export type ActionName = keyof Catalogue;
export type ActionInput<N extends ActionName> = z.input<Catalogue[N]['input']>;
export type ActionParsedInput<N extends ActionName> = z.output<Catalogue[N]['input']>;
export type ActionOutput<N extends ActionName> = z.output<Catalogue[N]['output']>;

export const actionNames = Object.keys(catalogue) as ActionName[];

export function isActionName(name: string): name is ActionName {
  return Object.prototype.hasOwnProperty.call(catalogue, name);
}

/** The wire path of an action (SPEC §7). */
export const actionPath = (name: string) => `/api/${name}/1.0.0/action`;

import type { HandlerMap } from '../../http/handlers.js';
import { fail } from '../../http/errors.js';

const notYet = (): never => fail('internal', { zh: '尚未实现', en: 'Not implemented yet' });

export const warningHandlers = {
  'as.m.warning.getCasePageList': async () => notYet(),
  'as.m.warning.getCase': async () => notYet(),
  'as.m.warning.acknowledgeCase': async () => notYet(),
  'as.m.warning.assignCase': async () => notYet(),
  'as.m.warning.startFollowUp': async () => notYet(),
  'as.m.warning.closeCase': async () => notYet(),
  'as.m.warning.flagPerson': async () => notYet(),
  'as.m.warning.insertFollowUp': async () => notYet(),
  'as.m.warning.getFollowUpPageList': async () => notYet(),
  'as.m.warning.rescreenCase': async () => notYet(),
  'as.m.warning.getWarningSettings': async () => notYet(),
  'as.m.warning.updateWarningSettings': async () => notYet(),
  'as.m.warning.getNotificationCount': async () => notYet(),
  'as.m.warning.getNotificationList': async () => notYet(),
  'as.m.warning.markNotificationsRead': async () => notYet(),
  'as.m.exam.exportCUserWarningDetailData': async () => notYet(),
  'as.m.hospital.statistic.getInterfereRecord': async () => notYet(),
} satisfies HandlerMap;

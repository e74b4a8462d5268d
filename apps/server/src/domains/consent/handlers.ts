import { noticeHandlers } from './notice.js';
import { personConsentHandlers } from './person.js';
import { sheetHandlers } from './sheet.js';

export const consentHandlers = { ...noticeHandlers, ...personConsentHandlers, ...sheetHandlers };

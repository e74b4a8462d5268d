import type { HandlerMap } from '../../http/handlers.js';
import { registrationCaseHandlers } from './cases.js';
import { registrationFormHandlers } from './forms.js';
import { registrationHandlers } from './registrations.js';
import { respondentRegistrationHandlers } from './respondent.js';

/**
 * Consultation registration (SPEC §2 /registration, registrationForm 00016): staff list, read,
 * fill in and move registrations and turn them into cases; a person requests a consultation
 * through the institution's QR entry.
 */
export const consultationHandlers = {
  ...registrationHandlers,
  ...registrationFormHandlers,
  ...registrationCaseHandlers,
  ...respondentRegistrationHandlers,
} satisfies HandlerMap;

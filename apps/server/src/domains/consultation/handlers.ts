import type { HandlerMap } from '../../http/handlers.js';
import { fail } from '../../http/errors.js';

/** Consultation registration (SPEC §2 /registration 00016). Contract first; bodies follow. */
const notYet = () => fail('internal', { zh: '尚未实现', en: 'Not implemented yet' });

export const consultationHandlers = {
  'as.m.registration.getRegistrationPage': async () => notYet(),
  'as.m.registration.getRegistration': async () => notYet(),
  'as.m.registration.getRegistrationForms': async () => notYet(),
  'as.m.registration.getRegistrationForm': async () => notYet(),
  'as.m.registration.insertRegistration': async () => notYet(),
  'as.m.registration.updateRegistrationState': async () => notYet(),
  'as.m.registration.turnIntoCase': async () => notYet(),
  'as.c.registration.getForm': async () => notYet(),
  'as.c.registration.submit': async () => notYet(),
} satisfies HandlerMap;

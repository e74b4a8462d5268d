import type { DbOrTx } from '../../db/database.js';
import { acceptCode, beginEnrolment, currentCode } from './second-factor.js';

/**
 * The one demo account that signs in with a second factor (issue 30 §1): the elderly-care home of
 * Chengdu. Its secret is public like the demo password: the start-up line prints it, so the
 * two-step sign-in can be tried with any authenticator app. Every other demo account keeps
 * signing in with its password only.
 */
export const DEMO_SECOND_FACTOR = { username: 'cdcare', musercode: 'I0009', secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' } as const;

export const demoSecondFactorUri = () =>
  `otpauth://totp/Xinli:${DEMO_SECOND_FACTOR.username}?issuer=Xinli&secret=${DEMO_SECOND_FACTOR.secret}&algorithm=SHA1&digits=6&period=30`;

/** Enrols it through the product's own enrolment: begin, then confirm with its first code. */
export async function seedDemoSecondFactor(db: DbOrTx, now: Date) {
  const person = { musercode: DEMO_SECOND_FACTOR.musercode, userid: null };
  await beginEnrolment(db, person, DEMO_SECOND_FACTOR.username, now, DEMO_SECOND_FACTOR.secret);
  if (!(await acceptCode(db, person, currentCode(DEMO_SECOND_FACTOR.secret, now), now, true)))
    throw new Error('demo second factor not confirmed');
}

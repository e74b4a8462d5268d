import type { TestServer } from './harness.js';

/** A 1×1 PNG: the smallest signature a pad could send. */
export const TEST_SIGNATURE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/**
 * The consent step of a respondent (issue 30 §4), as the respondent page takes it: a guardian
 * consents on the phone for a child under 14, and the respondent agrees to the current notice.
 * Answers the respondent token, so a test writes `await consented(s, token)` where it starts answering.
 */
export async function consented(s: TestServer, token: string, headers: Record<string, string> = {}): Promise<string> {
  const session = await s.call('as.c.exam.getSession', {}, token, headers);
  if (session.errorCode !== 0) throw new Error(`getSession: ${session.errorMsg}`);
  const privacy = (session.data as { privacy: { version: number; agreed: boolean; minor: boolean; guardian: boolean } }).privacy;
  if (privacy.minor && !privacy.guardian) {
    const g = await s.call('as.c.exam.giveGuardianConsent', { version: privacy.version, guardianname: '林家长', relation: 'mother', signature: TEST_SIGNATURE }, token, headers);
    if (g.errorCode !== 0) throw new Error(`giveGuardianConsent: ${g.errorMsg}`);
  } else if (!privacy.agreed) {
    const a = await s.call('as.c.exam.agreeNotice', { version: privacy.version }, token, headers);
    if (a.errorCode !== 0) throw new Error(`agreeNotice: ${a.errorMsg}`);
  }
  return token;
}

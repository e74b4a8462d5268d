/**
 * The respondent pages' request client: POST /api/{name}/1.0.0/action with a JSON body, the
 * respondent token in the `token` header and the page language in Accept-Language (the server
 * answers errorMsg in it). Only `as.c.*` actions: a respondent token opens nothing else.
 *
 * Failures reject with RespondentError: `network` true when the server could not be reached or
 * answered busy (503) (the screen offers "try again" and keeps what was entered), else the
 * envelope's code and sentence.
 */
import type { ActionInput, ActionName, ActionOutput } from '@xinli/contract';
import { currentLang, t } from './i18n';

/** Only the respondent catalogue. */
export type RespondentAction = Extract<ActionName, `as.c.${string}`>;

export class RespondentError extends Error {
  constructor(
    message: string,
    readonly code: number,
    /** Worth trying again: the server could not be reached, or had no room for the request (503). */
    readonly network = false,
  ) {
    super(message);
    this.name = 'RespondentError';
  }
}

/** Any failure as a RespondentError: the client's own, else the generic sentence (a fault of the page, not an answer of the server). */
export function asRespondentError(err: unknown): RespondentError {
  return err instanceof RespondentError ? err : new RespondentError(t('genericError'), -1);
}

const TIMEOUT_MS = 30_000;
let token: string | null = null;

/** The token the calls carry (set after start/registration, cleared at the end). */
export function setToken(next: string | null) {
  token = next;
}

export async function call<N extends RespondentAction>(name: N, input: ActionInput<N>): Promise<ActionOutput<N>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Accept-Language': currentLang() };
  if (token) headers.token = token;
  let response: Response;
  try {
    response = await fetch(`/api/${name}/1.0.0/action`, {
      method: 'POST',
      headers,
      body: JSON.stringify(input ?? {}),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    // The browser's own text ("Failed to fetch") is English and says nothing useful.
    throw new RespondentError(t('networkError'), -1, true);
  }
  let body: { errorCode?: number; errorMsg?: string; data?: unknown };
  try {
    body = await response.json();
  } catch {
    // A proxy's HTML error page or a cut answer: the server was not really reached.
    throw new RespondentError(t('networkError'), -1, response.status >= 500 || response.status === 0);
  }
  // 503: the server was reached but had no room for the request (no database connection came free
  // in time); what was entered is kept and the screen offers to try again, as for a network failure.
  if (body.errorCode !== 0) throw new RespondentError(body.errorMsg || t('genericError'), body.errorCode ?? -1, response.status === 503);
  return body.data as ActionOutput<N>;
}

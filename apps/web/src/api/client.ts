/**
 * The request client (SPEC §7, §8): every call is POST /api/{name}/1.0.0/action with a JSON
 * body, the `token` header when signed in and Accept-Language from the console language.
 *
 *   const page = await call('as.m.system.role.selectRoleList', { page: 1, pageSize: 10 });
 *
 * Errors are shown here once (5-second message; 110000 also opens the re-login dialog), then
 * the promise rejects with an ApiError, so callers only handle what they want to do differently.
 */
import type { ActionInput, ActionName, ActionOutput } from '@xinli/contract';
import { currentLanguage, t } from '../i18n';
import { feedback } from './feedback';
import { getToken, removeToken } from './session-token';
import { downloadFinished, downloadStarted, readWithProgress } from './download-overlay';
import { saveFile } from '../lib/files';

export const REQUEST_TIMEOUT_MS = 600_000;
export const MESSAGE_SECONDS = 5;
export const IDENTITY_INVALID = 110000;

export const actionUrl = (name: string) => `/api/${name}/1.0.0/action`;

export class ApiError extends Error {
  constructor(
    message: string,
    /** The envelope's errorCode, or -1 for network failures and unreadable answers. */
    readonly code: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface CallOptions {
  /** Do not show messages or the re-login dialog (sign-out of an already revoked session). */
  silent?: boolean;
  signal?: AbortSignal;
}

interface Envelope {
  errorCode?: number;
  errorMsg?: string;
  data?: unknown;
  request_id?: string;
}

/** Calls one action of the catalogue; resolves with its `data`. */
export async function call<N extends ActionName>(name: N, input: ActionInput<N>, options: CallOptions = {}): Promise<ActionOutput<N>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Accept-Language': currentLanguage() };
  const token = getToken();
  if (token) headers.token = token;
  const response = await send(actionUrl(name), { method: 'POST', headers, body: JSON.stringify(input ?? {}) }, options);
  const body = await readEnvelope(response, options);
  checkEnvelope(body, options, token);
  return body.data as ActionOutput<N>;
}

/**
 * Downloads the file an export action answers (SPEC §7): the input travels form-encoded as
 * JSON in `payload` with the token in `token`; a full-screen overlay shows meanwhile. The file
 * name comes from Content-Disposition, else `filename` (default extension .xlsx).
 */
export async function download<N extends ActionName>(name: N, input: ActionInput<N>, filename?: string): Promise<void> {
  downloadStarted();
  try {
    const form = new URLSearchParams({ payload: JSON.stringify(input ?? {}) });
    const token = getToken();
    if (token) form.set('token', token);
    const response = await send(
      actionUrl(name),
      { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Language': currentLanguage() }, body: form.toString() },
      {},
    );
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('application/json')) {
      // An export that answers JSON answers an error: show its message (checkEnvelope does).
      const body = await readEnvelope(response, {});
      checkEnvelope(body, {}, token);
      throw downloadFailed();
    }
    if (!response.ok) throw downloadFailed();
    const blob = await readWithProgress(response);
    saveFile(blob, fileNameOf(response.headers.get('content-disposition')) ?? withExtension(filename ?? name));
  } catch (err) {
    // ApiErrors were shown where they arose; anything else gets the generic sentence.
    if (err instanceof ApiError) throw err;
    throw downloadFailed();
  } finally {
    downloadFinished();
  }
}

function downloadFailed(): ApiError {
  const text = t('shell.downloadError');
  showError(text);
  return new ApiError(text, -1);
}

async function send(url: string, init: RequestInit, options: CallOptions): Promise<Response> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new Error(t('shell.requestTimeout', { seconds: REQUEST_TIMEOUT_MS / 1000 }))), REQUEST_TIMEOUT_MS);
  const signal = options.signal ? anySignal(options.signal, timeout.signal) : timeout.signal;
  try {
    return await fetch(url, { ...init, signal });
  } catch (err) {
    // The browser's own text ("Failed to fetch") is English whatever the console's language.
    const text = timeout.signal.aborted ? String((timeout.signal.reason as Error)?.message ?? 'timeout') : networkErrorText(err);
    if (!options.silent && !options.signal?.aborted) showError(text);
    throw new ApiError(text, -1);
  } finally {
    clearTimeout(timer);
  }
}

async function readEnvelope(response: Response, options: CallOptions): Promise<Envelope> {
  try {
    return (await response.json()) as Envelope;
  } catch {
    const text = response.ok ? t('shell.badAnswer') : t('shell.httpError', { status: response.status });
    // A call its page cancelled (the user moved on) stops reading the answer: nothing to show.
    if (!options.silent && !options.signal?.aborted) showError(text);
    throw new ApiError(text, -1);
  }
}

/**
 * SPEC §8: an answer without request_id whose errorCode is not 0 is an error. One answered after
 * the session it was sent with ended (signed out meanwhile, or another signed in) is shown no more:
 * a changed password's sign-out met a poll's expiry and left the dialog over the sign-in page.
 */
function checkEnvelope(body: Envelope, options: CallOptions, sentWith: string | undefined) {
  if (body.request_id !== undefined || !body.errorCode) return;
  const text = body.errorMsg || 'Error';
  if (!options.silent && sentWith === getToken()) {
    // Calls failing together on an expired session show its message once, with the one dialog.
    const expiryShown = body.errorCode === IDENTITY_INVALID && relogin !== undefined;
    if (!expiryShown) showError(text);
    if (body.errorCode === IDENTITY_INVALID) openReloginDialog();
  }
  throw new ApiError(text, body.errorCode);
}

/** Keys of the error messages on screen (cleared when they close or the page is left). */
const shownErrors = new Set<string>();

/**
 * An error message for 5 seconds. Calls failing together with the same sentence (the cards of
 * one page asking with one stale filter) show it once: antd replaces a message of the same key.
 */
function showError(text: string) {
  const key = `api-error:${text}`;
  shownErrors.add(key);
  feedback().message.error({ key, content: text, duration: MESSAGE_SECONDS, onClose: () => shownErrors.delete(key) });
}

/** Closes the error messages of the page being left (the layout calls it on navigation). */
export function clearErrorMessages() {
  for (const key of shownErrors) feedback().message.destroy(key);
  shownErrors.clear();
}

/** The re-login dialog while it is open. */
let relogin: { destroy: () => void } | undefined;

/** One dialog at a time, however many calls fail together. */
export function openReloginDialog() {
  if (relogin) return;
  relogin = feedback().modal.confirm({
    title: t('shell.systemPrompt'),
    content: t('shell.identityInvalid'),
    okText: t('shell.relogin'),
    cancelText: t('shell.cancel'),
    onOk: () => {
      removeToken();
      window.location.reload();
    },
    afterClose: () => {
      relogin = undefined;
    },
  });
}

/** Closes the re-login dialog: signing out leads to the sign-in page already. */
export function closeReloginDialog() {
  relogin?.destroy();
  relogin = undefined;
}

/** A failed fetch in the user's language; an abort by the caller keeps its own reason. */
const networkErrorText = (err: unknown) => (err instanceof DOMException && err.name === 'AbortError' && err.message ? err.message : t('shell.networkError'));

function anySignal(a: AbortSignal, b: AbortSignal): AbortSignal {
  const c = new AbortController();
  const abort = (s: AbortSignal) => () => c.abort(s.reason);
  if (a.aborted) c.abort(a.reason);
  else if (b.aborted) c.abort(b.reason);
  a.addEventListener('abort', abort(a), { once: true });
  b.addEventListener('abort', abort(b), { once: true });
  return c.signal;
}

/** filename*=UTF-8''… wins over filename="…". */
export function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      /* fall through to the plain name */
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition);
  return plain ? plain[1].trim() : undefined;
}

const withExtension = (name: string) => (/\.[a-z0-9]{2,5}$/i.test(name) ? name : `${name}.xlsx`);


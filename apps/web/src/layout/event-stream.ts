/**
 * The server's event stream (`GET /api/events`, server-sent events) read with fetch, so the
 * session token travels in the `token` header as on every call (EventSource cannot send
 * headers). @microsoft/fetch-event-source parses the stream; this module decides when to try
 * again: after a dropped connection or a server error, with exponential backoff and jitter; never
 * after the server refuses the caller (an expired session: the next call's re-login dialog handles it).
 */
import { useEffect, useRef } from 'react';
import { EventStreamContentType, fetchEventSource, type EventSourceMessage } from '@microsoft/fetch-event-source';
import { currentLanguage } from '../i18n';
import { getToken } from '../api';

export const EVENTS_URL = '/api/events';

/** The wait before reconnect attempt `attempt` (0-based): 1 s, 2 s, 4 s … capped at 60 s, each 50–100 % of that (jitter). */
export function backoffDelay(attempt: number, random: () => number = Math.random, base = 1000, max = 60_000): number {
  const ceiling = Math.min(max, base * 2 ** Math.min(attempt, 16));
  return Math.round(ceiling * (0.5 + random() / 2));
}

/** The session is not (or no longer) valid: do not try again. */
export class StreamRefused extends Error {}
class StreamDropped extends Error {}

/**
 * Whether an answer that is not an event stream is a deliberate refusal (401/403, or an error
 * envelope: an expired session 110000, no permission): trying again would only be refused again.
 */
export async function refusesSession(response: Response): Promise<boolean> {
  if (response.status === 401 || response.status === 403) return true;
  if (!(response.headers.get('content-type') ?? '').includes('application/json')) return false;
  try {
    const body = (await response.json()) as { errorCode?: number };
    return !!body.errorCode;
  } catch {
    return false;
  }
}

export interface EventStreamOptions {
  enabled: boolean;
  /** Any event (its name and data). */
  onEvent: (event: EventSourceMessage) => void;
  /** The stream is (again) open: what happened meanwhile was not pushed, so read it. */
  onOpen?: () => void;
  url?: string;
  /** The fetch to use (tests). */
  fetchImpl?: typeof fetch;
}

/** Keeps the event stream open while `enabled` and the component is mounted. */
export function useEventStream({
  enabled,
  onEvent,
  onOpen,
  url = EVENTS_URL,
  fetchImpl = (...a) => window.fetch(...a),
}: EventStreamOptions) {
  const handlers = useRef({ onEvent, onOpen });
  handlers.current = { onEvent, onOpen };
  useEffect(() => {
    if (!enabled) return;
    const stop = new AbortController();
    let attempt = 0;
    void fetchEventSource(url, {
      signal: stop.signal,
      // Pushed warnings matter most when the console is not the tab in front.
      openWhenHidden: true,
      // The token and language are read at each (re)connect: a re-login changes the token.
      fetch: (input, init) =>
        fetchImpl(input, {
          ...init,
          headers: { ...(init?.headers as Record<string, string>), token: getToken() ?? '', 'Accept-Language': currentLanguage() },
        }),
      async onopen(response) {
        if (response.ok && (response.headers.get('content-type') ?? '').startsWith(EventStreamContentType)) {
          attempt = 0;
          handlers.current.onOpen?.();
          return;
        }
        if (await refusesSession(response)) throw new StreamRefused();
        throw new StreamDropped(`HTTP ${response.status}`);
      },
      onmessage(event) {
        handlers.current.onEvent(event);
      },
      onclose() {
        // The server ended the stream (a restart, a proxy's timeout): connect again.
        throw new StreamDropped('closed');
      },
      onerror(err) {
        if (err instanceof StreamRefused || stop.signal.aborted) throw err;
        return backoffDelay(attempt++);
      },
    }).catch(() => undefined);
    return () => stop.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the fetch is fixed for the stream's life
  }, [enabled, url]);
}

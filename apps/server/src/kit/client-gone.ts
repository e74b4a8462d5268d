import type { ServerResponse } from 'node:http';

/**
 * A request-scoped AbortSignal that fires when the client goes away before its answer is complete
 * (DESIGN §4: long work stops when its client goes away). Two events say so, whichever comes first:
 * - the connection's end (the client closed its side): HTTP clients never half-close while they
 *   wait for an answer, and Node keeps such a socket open until the answer is written, so waiting
 *   for the socket to close would print every PDF first;
 * - the raw response's close before it finished (the connection was reset).
 * The request's own 'close' cannot tell: since Node 16 it fires once the body has been read.
 *
 * Listens from the call, but makes the signal only when it is first asked for (already aborted if
 * the client has gone by then): most actions never ask, and an AbortSignal costs a signed-in no-op
 * a twentieth of its CPU (issue 33 §1).
 */
export function clientGoneSignal(res: ServerResponse): () => AbortSignal {
  let controller: AbortController | undefined;
  let left = false;
  const abort = (c: AbortController) => c.abort(new Error('the client went away'));
  const gone = () => {
    if (res.writableEnded) return;
    left = true;
    if (controller) abort(controller);
  };
  // `on`, not `once` (each fires once anyway; `once` allocates a wrapper per listener, per request).
  const socket = res.socket;
  socket?.on('end', gone);
  res.on('close', () => {
    socket?.off('end', gone);
    gone();
  });
  return () => {
    if (!controller) {
      controller = new AbortController();
      if (left) abort(controller);
    }
    return controller.signal;
  };
}

/**
 * A per-process concurrency limit (a counting semaphore): for work bound to this process's own
 * resources (its Chromium, its CPU), which other processes do not share. Limits that must hold
 * across processes are kept in the database (e.g. a partial unique index over claimed slots).
 */
export class ProcessLimit {
  private used = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly max: number) {}

  /** A release function when a place is free now, else null (the caller answers "busy"). */
  tryAcquire(): (() => void) | null {
    if (this.used >= this.max) return null;
    this.used++;
    return this.releaser();
  }

  /** Waits for a place (background work queues rather than fails); rejects if the signal aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    const now = this.tryAcquire();
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const take = () => {
        signal?.removeEventListener('abort', abort);
        this.used++;
        resolve(this.releaser());
      };
      const abort = () => {
        const i = this.waiting.indexOf(take);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal!.reason);
      };
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener('abort', abort, { once: true });
      this.waiting.push(take);
    });
  }

  get inUse(): number {
    return this.used;
  }

  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.used--;
      this.waiting.shift()?.();
    };
  }
}

const limits = new Map<string, ProcessLimit>();

/** The process-wide limit of a name, created with `max` places on first use (a later, different max replaces an idle one). */
export function processLimit(name: string, max: number): ProcessLimit {
  let limit = limits.get(name);
  if (!limit || (limit.max !== max && limit.inUse === 0)) limits.set(name, (limit = new ProcessLimit(max)));
  return limit;
}

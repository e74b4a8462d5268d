/**
 * What a roster preview found, kept for a short time so the commit that follows it does not read
 * and check the same file again (issue 33 §2). An entry holds only what the file itself decides:
 * its rows checked and sealed, and its own problems (bad cells, a missing column, an ID number twice
 * in the file). Whether an ID number is already held by a person depends on the database and is
 * asked again every time, the commit's inside its transaction.
 *
 * The key is the file's SHA-256 with everything else the result depends on: the caller, the
 * institution imported into, the app and its archive form's code and version, and the language of
 * the problems. So another institution, another caller, a changed file or a changed archive form
 * never finds an entry. Entries live TTL_MS; the whole cache holds at most MAX_BYTES (oldest out
 * first). It lives in this process: a commit that reaches another process reads the file again.
 */
import { createHash } from 'node:crypto';

export const TTL_MS = 10 * 60_000;
export const MAX_BYTES = 64 * 2 ** 20;

interface Entry<T> {
  value: T;
  bytes: number;
  expires: number;
}

export class PreviewCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private held = 0;

  constructor(
    private readonly maxBytes = MAX_BYTES,
    private readonly ttlMs = TTL_MS,
  ) {}

  /** The entry under `key` if it has not expired at `now`. */
  get(key: string, now: Date): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= now.getTime()) {
      this.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps `value` (of about `bytes` bytes) until now + TTL; one larger than the whole cache is not kept. */
  set(key: string, value: T, bytes: number, now: Date) {
    this.delete(key);
    if (bytes > this.maxBytes) return;
    for (const [k, e] of this.entries) {
      if (this.held + bytes <= this.maxBytes && e.expires > now.getTime()) break;
      this.delete(k); // Map order is insertion order: the oldest go first, and expired ones on the way
    }
    this.entries.set(key, { value, bytes, expires: now.getTime() + this.ttlMs });
    this.held += bytes;
  }

  delete(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.held -= entry.bytes;
  }

  /** Entries and bytes held (tests, monitoring). */
  size() {
    return { entries: this.entries.size, bytes: this.held };
  }

  clear() {
    this.entries.clear();
    this.held = 0;
  }
}

/** The cache key: the file's SHA-256 and what else the checked result depends on. */
export function previewKey(bytes: Uint8Array, parts: (string | number | null)[]): string {
  const file = createHash('sha256').update(bytes).digest('hex');
  return JSON.stringify([file, ...parts]);
}

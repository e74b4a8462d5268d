import { vi } from 'vitest';

/**
 * The sizes of the large `Buffer.from(text, 'base64')` decodes (`'from'`) or `Buffer.concat` joins
 * (`'concat'`) made on this thread while `run` runs: work a test says belongs off the event loop.
 * A size counts when it is over `over` (characters decoded, or bytes joined).
 */
export async function bufferCalls<T>(
  method: 'from' | 'concat',
  over: number,
  run: () => Promise<T>,
): Promise<{ result: T; sizes: number[] }> {
  const sizes: number[] = [];
  const original = (Buffer[method] as (...args: unknown[]) => Buffer).bind(Buffer);
  const spy = vi.spyOn(Buffer, method).mockImplementation(((...args: unknown[]) => {
    const out = original(...args);
    const size = method === 'concat' ? out.length : args[1] === 'base64' && typeof args[0] === 'string' ? args[0].length : 0;
    if (size > over) sizes.push(size);
    return out;
  }) as never);
  try {
    return { result: await run(), sizes };
  } finally {
    spy.mockRestore();
  }
}

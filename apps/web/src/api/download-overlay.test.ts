import { describe, expect, it } from 'vitest';
import { readWithProgress } from './download-overlay';

describe('download progress', () => {
  it('reports the bytes of each chunk and the total the server announced', async () => {
    const parts = [new Uint8Array(3), new Uint8Array(5)];
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of parts) c.enqueue(p);
        c.close();
      },
    });
    const seen: [number, number | null][] = [];
    const blob = await readWithProgress(new Response(body, { headers: { 'content-length': '8', 'content-type': 'application/zip' } }), (r, t) =>
      seen.push([r, t]),
    );
    expect(seen).toEqual([
      [0, 8],
      [3, 8],
      [8, 8],
    ]);
    expect(blob.size).toBe(8);
    expect(blob.type).toBe('application/zip');
  });

  it('has no total when the server streams without a length', async () => {
    const seen: (number | null)[] = [];
    await readWithProgress(new Response('abc'), (_, t) => seen.push(t));
    expect(seen.every((t) => t === null)).toBe(true);
  });
});

/**
 * A file's bytes from the base64 of an action's input (base64.ts): the JSON worker's bytes when it
 * decoded them, else a check and a decode here in pieces of a megabyte, the same bytes either way.
 */
import { describe, expect, it } from 'vitest';
import { parseJsonOffThread } from '../../http/json-worker.js';
import { bufferCalls } from '../../test/buffer-calls.js';
import { base64Bytes } from './base64.js';

const MiB = 1024 * 1024;
/** 4 MiB and four characters of base64 (five pieces when decoded here), ending in one '='. */
const file = Buffer.from(Array.from({ length: 3 * MiB + 2 }, (_x, i) => (i * 7919 + (i >> 11)) & 0xff));
const base64 = file.toString('base64');
const refusal = { codeName: 'validation', msg: { zh: '文件内容不是有效的 base64', en: 'The file data is not valid base64' } };

describe('base64Bytes', () => {
  it('takes the bytes the JSON worker decoded and never decodes the string here', async () => {
    const input = (await parseJsonOffThread(Buffer.from(JSON.stringify({ content: base64 })))) as { content: string };
    const lengths: number[] = [];
    const { result, sizes } = await bufferCalls('from', 64 * 1024, () => base64Bytes(input, 'content', (n) => lengths.push(n)));
    expect(sizes).toEqual([]);
    expect(result.equals(file)).toBe(true);
    expect(lengths).toEqual([file.length]);
  });

  it('decodes what the worker did not (base64 in lines of 76, as mail writes it) here, a megabyte at a time, to the same bytes', async () => {
    const lines = base64.replace(/.{76}/g, '$&\r\n');
    const lengths: number[] = [];
    const { result, sizes } = await bufferCalls('from', 64 * 1024, () =>
      base64Bytes({ content: lines }, 'content', (n) => lengths.push(n)),
    );
    expect(result.equals(file)).toBe(true);
    expect(sizes).toEqual([MiB, MiB, MiB, MiB]); // and the last four characters
    expect(lengths).toEqual([file.length]);
  });

  it('takes a data URL’s prefix off', async () => {
    expect((await base64Bytes({ data: `data:image/png;base64,${base64.slice(0, 8)}` }, 'data')).equals(file.subarray(0, 6))).toBe(true);
  });

  it('refuses a character outside base64 and padding before the end, in the caller’s language', async () => {
    const bad = `${base64.slice(0, 2 * MiB + 5)}@${base64.slice(2 * MiB + 6)}`;
    await expect(base64Bytes({ content: bad }, 'content')).rejects.toMatchObject(refusal);
    await expect(base64Bytes({ content: 'QQ==QQ==' }, 'content')).rejects.toMatchObject(refusal);
    await expect(base64Bytes({ content: `${base64.slice(0, MiB - 4)}QQ==${base64.slice(MiB)}` }, 'content')).rejects.toMatchObject(refusal);
  });

  it('lets `check` refuse by the length before anything is decoded', async () => {
    const tooLarge = new Error('too large');
    const refuse = () => {
      throw tooLarge;
    };
    const { result, sizes } = await bufferCalls('from', 0, () =>
      base64Bytes({ content: base64 }, 'content', refuse).catch((e: unknown) => e),
    );
    expect(result).toBe(tooLarge);
    expect(sizes).toEqual([]);
  });
});

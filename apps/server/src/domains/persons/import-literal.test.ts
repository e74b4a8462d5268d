import { describe, expect, it } from 'vitest';
import { textArray, TextArrayWriter } from './import-literal.js';

describe('text[] literals of a roster import', () => {
  it('the writer writes, as bytes, the literal textArray gives, chunk after chunk', () => {
    const values = ['老人', null, '', 'a"b', 'c\\d', '[{"no":1,"value":"x\\"y"}]', '😀 é', 'NULL', 'x'.repeat(100_000)];
    const writer = new TextArrayWriter();
    for (const v of values) writer.add(v);
    const first = writer.take();
    expect(first.toString('utf8')).toBe(textArray(values));
    expect(first.toString('utf8')).toContain('"a\\"b","c\\\\d"');
    // The writer starts again after a take (and after a reset), and an empty literal is {}.
    expect(writer.take().toString('utf8')).toBe('{}');
    writer.add('dropped');
    writer.reset();
    writer.add('b');
    writer.add(null);
    expect(writer.take().toString('utf8')).toBe('{"b",NULL}');
    // The first literal is its own copy: writing more does not change it.
    expect(first.toString('utf8')).toBe(textArray(values));
  });
});

/**
 * text[] literals as PostgreSQL reads them (`{"a","b\"c",NULL}`): how a roster import sends a
 * column of thousands of values as one bind parameter (import-handlers.ts).
 */

/** A text[] literal of `values`: each element quoted with `"` and `\` escaped, null as NULL. */
export const textArray = (values: (string | null)[]) => `{${values.map(element).join(',')}}`;

const element = (v: string | null) => (v === null ? 'NULL' : `"${v.replace(/[\\"]/g, '\\$&')}"`);

/**
 * Writes a text[] literal value by value, as UTF-8 into a buffer outside the JS heap, and hands
 * it over as bytes of its own. A roster preview seals 50,000 rows into such literals: held as
 * arrays of strings until their chunk was full, the sealed values lived long enough to be moved
 * to the old generation and piled up there as garbage (tens of MiB of the import's peak, issue 33
 * §2); written here they die young. The buffer is reused from one literal to the next.
 */
export class TextArrayWriter {
  private buf: Buffer = Buffer.allocUnsafe(64 * 1024);
  private used = 0;
  private count = 0;

  add(value: string | null) {
    const text = element(value);
    // A UTF-16 code unit takes at most 3 bytes in UTF-8; one more for the comma.
    const need = this.used + text.length * 3 + 1;
    if (need > this.buf.length) {
      const next = Buffer.allocUnsafe(Math.max(need, this.buf.length * 2));
      this.buf.copy(next, 0, 0, this.used);
      this.buf = next;
    }
    if (this.count++) this.buf[this.used++] = 0x2c; // ,
    this.used += this.buf.write(text, this.used, 'utf8');
  }

  /** The literal of the values added since the last take (or reset), in a buffer of its own size. */
  take(): Buffer {
    const out = Buffer.allocUnsafeSlow(this.used + 2);
    out[0] = 0x7b; // {
    this.buf.copy(out, 1, 0, this.used);
    out[this.used + 1] = 0x7d; // }
    this.reset();
    return out;
  }

  reset() {
    this.used = 0;
    this.count = 0;
  }
}

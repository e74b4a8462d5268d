/** Fen (the wire's integer amounts) as yuan with two decimals, e.g. 1990 → "¥19.90". */
export const yuan = (fen: number) => `¥${(fen / 100).toFixed(2)}`;
/** Yuan typed in a form (up to two decimals) as integer fen. */
export const toFen = (value: number | null | undefined) => Math.round((value ?? 0) * 100);

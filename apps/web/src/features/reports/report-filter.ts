/**
 * The indicator condition of the report lists in the URL (`?quota=PHQ9~TOTAL~2.3`): one
 * indicator of one form at some levels, so a reload or a shared link shows the same list.
 */
export interface QuotaPick {
  formcode: string;
  quotacode: string;
  levels: number[];
}

const SEP = '~';

export function encodeQuota(q: QuotaPick | null): string | null {
  if (!q || !q.formcode || !q.quotacode) return null;
  return [q.formcode, q.quotacode, [...new Set(q.levels)].sort().join('.')].join(SEP);
}

/** Null for anything that is not a well-formed condition (a hand-edited URL). */
export function decodeQuota(raw: string | null): QuotaPick | null {
  if (!raw) return null;
  const [formcode, quotacode, levels = '', ...rest] = raw.split(SEP);
  if (rest.length || !formcode || !quotacode) return null;
  const ls = levels ? levels.split('.').map(Number) : [];
  if (ls.some((l) => !Number.isInteger(l) || l < 0 || l > 4)) return null;
  return { formcode, quotacode, levels: ls };
}

/** The `quotas` input of the report filter: a condition counts only with levels chosen. */
export const quotasInput = (q: QuotaPick | null) => (q && q.levels.length ? [{ formcode: q.formcode, quotacode: q.quotacode, levels: q.levels }] : undefined);

/** The report filter of a list's input: without paging (exports, counts, the PDF zip). */
export function filterOf<T extends Record<string, unknown>>(input: T): Omit<T, 'page' | 'pageSize'> {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { page, pageSize, ...rest } = input;
  return rest;
}

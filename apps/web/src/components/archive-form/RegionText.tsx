/**
 * A stored region answer (one GB/T 2260 code) named for a reader: "浙江省 / 杭州市 / 西湖区".
 * The levels above the code are read with the region picker's cached queries; until they arrive,
 * or for a code the list does not know, the code itself shows.
 */
import { useQueries } from '@tanstack/react-query';
import { regionQuery } from '../RegionPicker';
import { regionPath } from './values';

export default function RegionText({ code }: { code: string }) {
  const path = regionPath(code);
  // The list holding each level: provinces (''), then the cities of the province, then the districts of the city.
  const parents = ['', ...path.slice(0, -1)];
  const lists = useQueries({ queries: parents.map((p) => regionQuery(p)) });
  const names = path.map((c, i) => lists[i]?.data?.find((r) => r.code === c)?.name);
  if (!path.length || names.some((n) => !n)) return <>{code}</>;
  return <>{names.join(' / ')}</>;
}

/** A column's display text: a region answer (input type 8) named, anything else as it is. */
export function regionOr(column: { type: number; inputtype: number | null }, value: string | undefined) {
  if (!value) return '—';
  return column.type === 0 && column.inputtype === 8 && /^[0-9]{6}$/.test(value) ? <RegionText code={value} /> : value;
}

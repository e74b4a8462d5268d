import { useEffect, useId, useState } from 'react';
import { t } from '../i18n';

interface Division {
  code: string;
  name: string;
  children?: Division[];
}

/**
 * Input type 8: province, city and district as three native selects (the phone's own picker,
 * big and accessible); the answer is the district's 6-digit code. The table is the server's own
 * (@vant/area-data, GB/T 2260: accounts/regions.ts checks answers against it), so every choice
 * here is one the server accepts; about 30 kB gzipped, it loads only when a region question is
 * on screen. Codes here are shortened to their level (province 2 digits, city 4, district 6).
 */
let table: Promise<Division[]> | null = null;
const loadTable = () =>
  (table ??= import('@vant/area-data').then(({ areaList }) => {
    const under = (list: Record<string, string>, prefix: string, digits: number): Division[] =>
      Object.entries(list)
        .filter(([code]) => code.startsWith(prefix))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([code, name]) => ({ code: code.slice(0, digits), name }));
    return under(areaList.province_list, '', 2).map((p) => ({
      ...p,
      children: under(areaList.city_list, p.code, 4).map((c) => ({ ...c, children: under(areaList.county_list, c.code, 6) })),
    }));
  }));

export function RegionSelect({
  legend,
  value,
  onChange,
  invalid,
  errorId,
}: {
  legend: string;
  value: string;
  onChange: (s: string) => void;
  invalid: boolean;
  errorId: string;
}) {
  const [divisions, setDivisions] = useState<Division[] | null>(null);
  const [failed, setFailed] = useState(false);
  const ids = [useId(), useId(), useId()];
  useEffect(() => {
    loadTable().then(setDivisions, () => setFailed(true));
  }, []);
  // The value is the deepest code chosen (GB/T 2260: province 2 digits, city 4, district 6);
  // its prefixes name the levels above.
  const p = value.slice(0, 2);
  const c = value.length >= 4 ? value.slice(0, 4) : '';
  const d = value.length >= 6 ? value.slice(0, 6) : '';
  const province = divisions?.find((x) => x.code === p);
  const city = province?.children?.find((x) => x.code === c);
  // Every city of the table has districts (towns right below a city, as in 东莞, are listed as
  // its districts), so the answer is always a district.
  const levels: { label: string; list: Division[] | undefined; selected: string; pick: (code: string) => void }[] = [
    { label: t('fill.province'), list: divisions ?? undefined, selected: p, pick: (code) => onChange(code) },
    { label: t('fill.city'), list: province?.children, selected: c, pick: (code) => onChange(code || p) },
    { label: t('fill.district'), list: city?.children, selected: d, pick: (code) => onChange(code || c) },
  ];
  return (
    <fieldset className="r-question" aria-describedby={invalid ? errorId : undefined}>
      <legend>{legend}</legend>
      {failed && <div className="r-error">{t('networkError')}</div>}
      {levels.map((level, i) => (
        <div className="r-field" key={i}>
          <label className="r-label" htmlFor={ids[i]}>
            {level.label}
          </label>
          <select
            id={ids[i]}
            className="r-select"
            value={level.selected}
            disabled={!level.list?.length}
            aria-invalid={invalid && !level.selected}
            onChange={(e) => level.pick(e.target.value)}
            data-testid={`r-region-${i}`}
          >
            <option value="">{t('fill.choose')}</option>
            {level.list?.map((x) => (
              <option key={x.code} value={x.code}>
                {x.name}
              </option>
            ))}
          </select>
        </div>
      ))}
    </fieldset>
  );
}

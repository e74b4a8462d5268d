/**
 * Search filters declared as data. Each kind knows its field, its label (by the key
 * convention), how it is edited and how it travels in the URL:
 *
 *   filters: [f.text('rolename'), f.enabled(), f.institution(), f.enumOf('formtype', FormType),
 *             f.app(), f.stage(), f.dateRange('createdat', ['starttime', 'endtime'])]
 */
import { DatePicker, Form, Input, InputNumber, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { EnumItem } from '@xinli/contract';
import { pick, type Language } from '../../i18n';
import { hasLabel, labelOf, type Resource } from '../../lib/labels';
import { InstitutionSelect, useApps, useInstitutions, useStages, type InstitutionSource } from '../pickers';
import RegionPicker from '../RegionPicker';

type Value = string | number;
export interface Option {
  value: Value;
  label: string;
}

interface Base {
  /** The input field (and URL parameter). */
  name: string;
  /** A label other than the field's own. */
  label?: string;
  width?: number;
}
export type FilterDef =
  | (Base & { kind: 'text'; maxLength?: number; placeholder?: string })
  | (Base & { kind: 'enum'; items?: EnumItem<Value>[]; options?: Option[] | ((lang: Language) => Option[]) })
  | (Base & { kind: 'enabled' })
  | (Base & { kind: 'institution'; source?: InstitutionSource })
  | (Base & { kind: 'app' })
  | (Base & { kind: 'stage'; appField?: string })
  | (Base & { kind: 'dateRange'; fields: [string, string] })
  /** An amount from … to, typed in yuan, in whole fen in the URL and on the wire. */
  | (Base & { kind: 'moneyRange'; fields: [string, string] })
  | (Base & { kind: 'region'; fields: [string, string, string] });

/** Builders of filter declarations. */
export const f = {
  text: (name: string, o: Partial<Omit<Extract<FilterDef, { kind: 'text' }>, 'kind' | 'name'>> = {}): FilterDef => ({
    kind: 'text',
    name,
    ...o,
  }),
  /** A choice from a contract enumeration ({value, zh, en}). */
  enumOf: (name: string, items: EnumItem<Value>[], o: Partial<Base> = {}): FilterDef => ({ kind: 'enum', name, items, ...o }),
  /** A choice from options made by the page (labels already translated, or made per language). */
  select: (name: string, options: Option[] | ((lang: Language) => Option[]), o: Partial<Base> = {}): FilterDef => ({
    kind: 'enum',
    name,
    options,
    ...o,
  }),
  enabled: (name = 'enabled', o: Partial<Base> = {}): FilterDef => ({ kind: 'enabled', name, ...o }),
  /** The institution picker, shown only when its source lists several (default: those the caller manages). */
  institution: (name = 'musercode', o: Partial<Base> & { source?: InstitutionSource } = {}): FilterDef => ({
    kind: 'institution',
    name,
    ...o,
  }),
  app: (name = 'appid', o: Partial<Base> = {}): FilterDef => ({ kind: 'app', name, ...o }),
  stage: (name = 'stagecode', o: Partial<Omit<Extract<FilterDef, { kind: 'stage' }>, 'kind' | 'name'>> = {}): FilterDef => ({
    kind: 'stage',
    name,
    ...o,
  }),
  /** A date range sent as two fields (YYYY-MM-DD); the picker has the SPEC §9 shortcuts. */
  dateRange: (name: string, fields: [string, string], o: Partial<Base> = {}): FilterDef => ({ kind: 'dateRange', name, fields, ...o }),
  moneyRange: (name: string, fields: [string, string], o: Partial<Base> = {}): FilterDef => ({ kind: 'moneyRange', name, fields, ...o }),
  /** A province / city / district (RegionPicker, any level) sent as its three code fields. */
  region: (
    name = 'region',
    fields: [string, string, string] = ['provincecode', 'citycode', 'districtcode'],
    o: Partial<Base> = {},
  ): FilterDef => ({
    kind: 'region',
    name,
    fields,
    ...o,
  }),
};

export type Filters = Record<string, Value | undefined>;
const DAY = 'YYYY-MM-DD';

/** The URL parameters a filter owns. */
export const paramsOf = (d: FilterDef): string[] => ('fields' in d ? d.fields : [d.name]);

function enumValue(d: Extract<FilterDef, { kind: 'enum' }>, raw: string): Value | undefined {
  const list = d.items ?? (typeof d.options === 'function' ? d.options('zh-CN') : d.options) ?? [];
  return list.find((o) => String(o.value) === raw)?.value;
}

/** Filters from URL parameters; values that are not valid for their filter are dropped. */
export function decodeFilters(defs: FilterDef[], params: URLSearchParams): Filters {
  const out: Filters = {};
  for (const d of defs) {
    if (d.kind === 'dateRange') {
      for (const field of d.fields) {
        const raw = params.get(field);
        if (raw && dayjs(raw, DAY, true).isValid()) out[field] = raw;
      }
      continue;
    }
    if (d.kind === 'moneyRange') {
      for (const field of d.fields) {
        const raw = params.get(field);
        if (raw && /^[0-9]{1,12}$/.test(raw)) out[field] = Number(raw);
      }
      continue;
    }
    if (d.kind === 'region') {
      // A level counts only under the one above it (no city without its province).
      for (const field of d.fields) {
        const raw = params.get(field);
        if (!raw || !/^[0-9]{6}$/.test(raw)) break;
        out[field] = raw;
      }
      continue;
    }
    const raw = params.get(d.name);
    if (raw === null || raw === '') continue;
    if (d.kind === 'enabled') {
      if (raw === '0' || raw === '1') out[d.name] = Number(raw);
    } else if (d.kind === 'enum') {
      const v = enumValue(d, raw);
      if (v !== undefined) out[d.name] = v;
    } else out[d.name] = raw;
  }
  return out;
}

/** Writes filters into URL parameters (owned keys only; other parameters are kept). */
export function encodeFilters(defs: FilterDef[], filters: Filters, params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of defs.flatMap(paramsOf)) {
    const v = filters[key];
    if (v === undefined || v === '') next.delete(key);
    else next.set(key, String(v));
  }
  return next;
}

/** Form values (a date range is one [from, to] field) from filters … */
export function toFormValues(defs: FilterDef[], filters: Filters): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const d of defs) {
    if (d.kind === 'dateRange') {
      const [a, b] = d.fields.map((k) => filters[k]);
      out[d.name] = a && b ? [dayjs(String(a)), dayjs(String(b))] : undefined;
    } else if (d.kind === 'moneyRange') {
      const [a, b] = d.fields.map((k) => filters[k]);
      out[d.name] = a === undefined && b === undefined ? undefined : [a, b].map((v) => (v === undefined ? null : Number(v) / 100));
    } else if (d.kind === 'region') {
      const path = d.fields
        .map((k) => filters[k])
        .filter(Boolean)
        .map(String);
      out[d.name] = path.length ? path : undefined;
    } else out[d.name] = filters[d.name];
  }
  return out;
}

/** … and back: blank text is no filter, text is trimmed, a range becomes its two fields. */
export function fromFormValues(defs: FilterDef[], values: Record<string, unknown>): Filters {
  const out: Filters = {};
  for (const d of defs) {
    const v = values[d.name];
    if (d.kind === 'dateRange') {
      const range = v as [Dayjs, Dayjs] | null | undefined;
      if (range?.[0] && range[1]) {
        out[d.fields[0]] = range[0].format(DAY);
        out[d.fields[1]] = range[1].format(DAY);
      }
    } else if (d.kind === 'moneyRange') {
      const range = (v as (number | null)[] | null | undefined) ?? [];
      d.fields.forEach((field, i) => {
        if (typeof range[i] === 'number') out[field] = Math.round(range[i] * 100);
      });
    } else if (d.kind === 'region') {
      const path = (v as string[] | null | undefined) ?? [];
      d.fields.forEach((field, i) => {
        if (path[i]) out[field] = path[i];
      });
    } else if (typeof v === 'string') {
      if (v.trim()) out[d.name] = v.trim();
    } else if (v !== undefined && v !== null) out[d.name] = v as Value;
  }
  return out;
}

/** SPEC §9 date shortcuts: last week, last month (30 days), last three months (90 days). */
export function dateShortcuts(t: (key: string) => string, now: Dayjs = dayjs()) {
  const today = now.startOf('day');
  return [
    { label: t('common.shortcuts.lastWeek'), value: [today.subtract(7, 'day'), today] as [Dayjs, Dayjs] },
    { label: t('common.shortcuts.lastMonth'), value: [today.subtract(30, 'day'), today] as [Dayjs, Dayjs] },
    { label: t('common.shortcuts.lastThreeMonths'), value: [today.subtract(90, 'day'), today] as [Dayjs, Dayjs] },
  ];
}

/** A date range picker with the SPEC §9 shortcuts (for filters and forms). */
export function DateRange(props: React.ComponentProps<typeof DatePicker.RangePicker>) {
  const { t } = useTranslation();
  return <DatePicker.RangePicker presets={dateShortcuts(t)} {...props} />;
}

/**
 * A filter's label: its own, else by the key convention. The enabled filter reads "status"; the
 * institution filter reads "institution" unless its field has a label of its own.
 */
export function filterLabel(resource: Resource | undefined, d: FilterDef): string {
  if (d.label) return d.label;
  if (d.kind === 'enabled' && d.name === 'enabled') return labelOf(resource, 'status');
  if (d.kind === 'institution' && !hasLabel(resource, d.name)) return labelOf(resource, 'institution');
  return labelOf(resource, d.name);
}

/** The form items of the declared filters (inside SearchForm). */
export function FilterFields({ defs, resource }: { defs: FilterDef[]; resource?: Resource }) {
  const { t, i18n } = useTranslation();
  const lang: Language = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  const sourceOf = (d: FilterDef) => (d.kind === 'institution' ? (d.source ?? 'managed') : undefined);
  const institutions = {
    managed: useInstitutions(
      'managed',
      defs.some((d) => sourceOf(d) === 'managed'),
    ),
    stats: useInstitutions(
      'stats',
      defs.some((d) => sourceOf(d) === 'stats'),
    ),
  };
  const hasApp = defs.some((d) => d.kind === 'app' || d.kind === 'stage');
  const apps = useApps(hasApp);
  const all = t('common.all');
  return (
    <>
      {defs.map((d) => {
        const label = filterLabel(resource, d);
        const item = (child: React.ReactNode) => (
          <Form.Item key={d.name} name={d.name} label={label}>
            {child}
          </Form.Item>
        );
        switch (d.kind) {
          case 'text':
            return item(
              <Input
                allowClear
                maxLength={d.maxLength}
                placeholder={d.placeholder ?? t('common.enter', { field: label })}
                style={{ width: d.width ?? 180 }}
              />,
            );
          case 'enum': {
            const options = d.items
              ? d.items.map((i) => ({ value: i.value, label: pick(i, lang) }))
              : typeof d.options === 'function'
                ? d.options(lang)
                : (d.options ?? []);
            // Long lists (the audit log's actions) are searched by their labels as typed.
            return item(
              <Select allowClear showSearch={{ optionFilterProp: 'label' }} options={options} placeholder={all} style={{ width: d.width ?? 150 }} />,
            );
          }
          case 'enabled':
            return item(
              <Select
                allowClear
                placeholder={all}
                style={{ width: d.width ?? 120 }}
                options={[
                  { value: 1, label: t('common.enabled') },
                  { value: 0, label: t('common.disabled') },
                ]}
              />,
            );
          case 'institution':
            return institutions[d.source ?? 'managed'].many
              ? item(<InstitutionSelect source={d.source} allowClear placeholder={all} style={{ width: d.width ?? 200 }} />)
              : null;
          case 'app':
            return item(
              <Select allowClear options={apps.options} loading={apps.loading} placeholder={all} style={{ width: d.width ?? 170 }} />,
            );
          case 'stage':
            return (
              <Form.Item key={d.name} noStyle shouldUpdate>
                {(form) => (
                  <Form.Item name={d.name} label={label}>
                    <StageSelect
                      appid={form.getFieldValue(d.appField ?? 'appid') as string | undefined}
                      placeholder={all}
                      style={{ width: d.width ?? 180 }}
                    />
                  </Form.Item>
                )}
              </Form.Item>
            );
          case 'dateRange':
            return item(<DateRange style={{ width: d.width ?? 260 }} />);
          case 'moneyRange':
            return (
              <Form.Item
                key={d.name}
                name={d.name}
                label={label}
                rules={[
                  {
                    validator: async (_, v: (number | null)[] | undefined) =>
                      typeof v?.[0] === 'number' && typeof v[1] === 'number' && v[0] > v[1]
                        ? Promise.reject(new Error(t('common.rangeReversed')))
                        : undefined,
                  },
                ]}
              >
                <MoneyRange />
              </Form.Item>
            );
          case 'region':
            return item(<RegionPicker changeOnSelect allowClear placeholder={all} style={{ width: d.width ?? 240 }} />);
        }
      })}
    </>
  );
}

function StageSelect({ appid, ...props }: { appid?: string } & React.ComponentProps<typeof Select<string>>) {
  const stages = useStages(appid);
  return (
    <Select<string> allowClear showSearch={{ optionFilterProp: 'label' }} options={stages.options} loading={stages.loading} {...props} />
  );
}

/** Two amounts in yuan (from, to), each optional, never negative, to the fen. */
function MoneyRange({ value, onChange }: { value?: (number | null)[]; onChange?: (v: (number | null)[]) => void }) {
  const { t } = useTranslation();
  const [from, to] = value ?? [null, null];
  const box = (v: number | null | undefined, i: number, placeholder: string) => (
    <InputNumber<number>
      min={0}
      max={1_000_000_000}
      precision={2}
      prefix="¥"
      placeholder={placeholder}
      value={v ?? null}
      onChange={(n) => onChange?.(i === 0 ? [n, to ?? null] : [from ?? null, n])}
      style={{ width: 120 }}
      data-testid={`money-range-${i ? 'max' : 'min'}`}
    />
  );
  return (
    <Space.Compact>
      {box(from, 0, t('common.rangeFrom'))}
      <span className="money-range-sep">–</span>
      {box(to, 1, t('common.rangeTo'))}
    </Space.Compact>
  );
}

/**
 * Small pieces shared by the permission-management and administration pages (roles, menus,
 * departments, users): the current language, the enabled/disabled tag and options, and a
 * helper that nests flat rows into a tree for tree tables and tree selects.
 */
import { Select, Tag, type SelectProps } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../api';
import type { Language } from '../../i18n';

export function useLang(): Language {
  const { i18n } = useTranslation();
  return i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
}

/** SPEC §3 enabled: 1 enabled, 0 disabled. */
export function StatusTag({ enabled }: { enabled: number }) {
  const { t } = useTranslation();
  return enabled === 1 ? <Tag color="success">{t('system.common.enabled')}</Tag> : <Tag color="error">{t('system.common.disabled')}</Tag>;
}

export function useEnabledOptions() {
  const { t } = useTranslation();
  return [
    { value: 1, label: t('system.common.enabled') },
    { value: 0, label: t('system.common.disabled') },
  ];
}

export type Nested<T> = T & { children?: Nested<T>[] };

/**
 * Nests flat rows by parent id, keeping their order. A row whose parent is not in the list (a
 * filtered list, or another institution's root) becomes a root. Leaves get no `children`, so
 * tree tables show no expand icon for them.
 */
export function nest<T extends object>(rows: T[], id: (r: T) => string, parent: (r: T) => string | null): Nested<T>[] {
  const nodes = new Map<string, Nested<T>>(rows.map((r) => [id(r), { ...r }]));
  const roots: Nested<T>[] = [];
  for (const r of rows) {
    const node = nodes.get(id(r))!;
    const p = parent(r);
    const up = p ? nodes.get(p) : undefined;
    if (up && up !== node) (up.children ??= []).push(node);
    else roots.push(node);
  }
  return roots;
}

/** Every key of a tree that has children (what "expand all" opens). */
export function parentKeys<T extends { children?: T[] }>(nodes: T[], key: (n: T) => string): string[] {
  return nodes.flatMap((n) => (n.children?.length ? [key(n), ...parentKeys(n.children, key)] : []));
}

/** Every key of a tree. */
export function allKeys<T extends { children?: T[] }>(nodes: T[], key: (n: T) => string): string[] {
  return nodes.flatMap((n) => [key(n), ...allKeys(n.children ?? [], key)]);
}

/** Renders an ISO time as local "YYYY-MM-DD HH:mm". */
export function formatTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * The accounts whose roles, departments and users the caller manages: its own first, then a
 * provider's institutions. `many` says whether an institution picker is worth showing.
 */
export function useInstitutions() {
  const q = useQuery({
    queryKey: ['as.m.system.muser.selectInstitutionList', {}],
    queryFn: () => call('as.m.system.muser.selectInstitutionList', {}),
    staleTime: 60_000,
  });
  const list = q.data ?? [];
  return { list, many: list.length > 1, own: list[0]?.musercode, nameOf: (code: string) => list.find((i) => i.musercode === code)?.insname ?? code };
}

/** A picker of the institutions the caller manages. */
export function InstitutionSelect(props: SelectProps<string>) {
  const { t } = useTranslation();
  const { list } = useInstitutions();
  return (
    <Select<string>
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={t('system.common.choose', { field: t('system.common.institution') })}
      options={list.map((i) => ({ value: i.musercode, label: i.insname || i.musercode }))}
      {...props}
    />
  );
}

import { useMemo, useState } from 'react';
import { Button, Cascader, Input, Space, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { categoryCode, type CategoryNode } from '@xinli/contract';
import { noOptions } from '../../components/pickers';
import { useAction } from '../../components/query';

export type AccountKind = 'institution' | 'provider';

/** The category path has six levels, categorycode0..5 (SPEC §3). */
export const CATEGORY_LEVELS = 6;
export const categoryKeys = ['categorycode0', 'categorycode1', 'categorycode2', 'categorycode3', 'categorycode4', 'categorycode5'] as const;

/** The six wire fields of a path (missing levels ''). */
export function pathToFields(path: string[] | undefined) {
  return Object.fromEntries(categoryKeys.map((k, i) => [k, path?.[i] ?? ''])) as Record<(typeof categoryKeys)[number], string>;
}

/** The path of a record's category fields, up to its first empty level. */
export function fieldsToPath(r: Partial<Record<(typeof categoryKeys)[number], string>>): string[] {
  const path: string[] = [];
  for (const k of categoryKeys) {
    if (!r[k]) break;
    path.push(r[k]!);
  }
  return path;
}

/** The category tree of the accounts in scope (their paths merged). */
export function useCategoryTree(kind?: AccountKind) {
  return useAction('as.m.user.getMUserCategoryTree', kind ? { kind } : {});
}

interface Option {
  value: string;
  label: string;
  children?: Option[];
}

/** The tree as cascader options, with the path being edited added where it is new. */
function optionsOf(tree: CategoryNode[], path: string[]): Option[] {
  const toOptions = (nodes: CategoryNode[]): Option[] =>
    nodes.map((n) => ({ value: n.code, label: n.code, children: n.children.length ? toOptions(n.children) : undefined }));
  const options = toOptions(tree);
  let level = options;
  for (const code of path) {
    let node = level.find((o) => o.value === code);
    if (!node) level.push((node = { value: code, label: code }));
    level = node.children ??= [];
  }
  return options;
}

export interface CategoryPathPickerProps {
  value?: string[];
  onChange?: (path: string[]) => void;
  kind?: AccountKind;
}

/**
 * Picks a category path: a node of the existing tree (any level), and below it new levels typed
 * in, one at a time, so a path never skips a level. Up to six levels.
 */
export default function CategoryPathPicker({ value = [], onChange, kind }: CategoryPathPickerProps) {
  const { t } = useTranslation();
  const tree = useCategoryTree(kind);
  const [draft, setDraft] = useState('');
  const options = useMemo(() => optionsOf(tree.data ?? [], value), [tree.data, value]);
  const draftOk = categoryCode.safeParse(draft).success;
  const full = value.length >= CATEGORY_LEVELS;

  const add = () => {
    const label = draft.trim();
    if (!label || !draftOk || full) return;
    onChange?.([...value, label]);
    setDraft('');
  };

  return (
    <Space orientation="vertical" size={6} style={{ width: '100%' }}>
      <Cascader<Option>
        options={options}
        value={value.length ? value : undefined}
        changeOnSelect
        allowClear
        loading={tree.isLoading}
        notFoundContent={noOptions(tree, t('Service.account.noCategories'))}
        placeholder={t('Service.account.noCategory')}
        onChange={(path) => onChange?.((path ?? []).map(String))}
        style={{ width: '100%' }}
        data-testid="category-path"
      />
      <Space.Compact style={{ width: '100%' }}>
        <Input
          value={draft}
          maxLength={32}
          disabled={full}
          status={draft && !draftOk ? 'error' : undefined}
          placeholder={full ? t('Service.account.categoryMax') : t('Service.account.categoryNewLevel')}
          onChange={(e) => setDraft(e.target.value)}
          onPressEnter={(e) => {
            e.preventDefault();
            add();
          }}
          data-testid="category-new"
        />
        <Button icon={<PlusOutlined />} disabled={!draft.trim() || !draftOk || full} onClick={add} data-testid="category-add">
          {t('Service.account.categoryAddLevel')}
        </Button>
      </Space.Compact>
      {draft && !draftOk && <Typography.Text type="danger">{t('Service.account.categoryFormat')}</Typography.Text>}
    </Space>
  );
}

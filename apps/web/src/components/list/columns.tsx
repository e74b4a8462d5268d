/**
 * Column helpers: the title comes from the field name by the key convention
 * (`<resource>.<field>`, else `common.<field>`); any column can still be a plain antd column.
 *
 *   columns={[list.col.text('rolename'), list.col.time('createdat'),
 *             list.col.enabled({ action: 'as.m.system.role.updateRole', input: (r, on) => ({ roleid: r.roleid, enabled: on }), name: (r) => r.rolename }),
 *             list.col.actions((r) => [{ key: 'edit', action: 'as.m.system.role.updateRole', onClick: () => edit(r) }])]}
 */
import type { ReactNode } from 'react';
import { Button, Dropdown, Space, Switch, Tag, Tooltip } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { DeleteOutlined, DownOutlined, EditOutlined } from '@ant-design/icons';
import type { ActionInput, ActionName, EnumItem } from '@xinli/contract';
import i18n, { pick, type Language } from '../../i18n';
import { labelOf, type Resource } from '../../lib/labels';
import type { KeyOf } from '../../i18n/keys';
import { tFull } from '../../i18n/useT';
import { formatTime, timeZoneLabel } from '../../lib/format';
import type { ConfirmCallOptions } from './confirm';

type Key<T> = Extract<keyof T, string>;
type Col<T> = ColumnType<T>;
const t = (key: string, o?: Record<string, unknown>) => i18n.t(key, o) as string;
const lang = (): Language => (i18n.language === 'en-US' ? 'en-US' : 'zh-CN');

/** A row action without its own label is named by the common word of its key (edit, delete, view …). */
export type RowAction = RowActionBase & ({ key: KeyOf<'common'>; label?: ReactNode } | { key: string; label: ReactNode });
interface RowActionBase {
  icon?: ReactNode;
  onClick: () => void;
  /** The action behind the button: hidden when the caller may not call it. */
  action?: ActionName;
  hidden?: boolean;
  disabled?: boolean;
  danger?: boolean;
  tooltip?: ReactNode;
  testId?: string;
  /** In the row's "more" menu instead of a link. */
  more?: boolean;
}

export interface EnabledColumn<T, A extends ActionName> {
  action: A;
  input: (row: T, enabled: 0 | 1) => ActionInput<A>;
  /** The row's name in the question and the message. */
  name: (row: T) => string;
  field?: Key<T>;
  /** Ask before enabling / disabling (default: both). */
  confirm?: 'both' | 'off' | 'none';
  /** A switch that cannot be moved (the caller's own account, a built-in row). */
  disabled?: (row: T) => boolean;
  /** A tag instead of a switch (rows the caller may not change). */
  readOnly?: (row: T) => boolean;
  /** The question when disabling, instead of common.disableConfirm. */
  offQuestion?: (row: T) => string;
  testId?: (row: T) => string;
  /** What a read-only row shows, instead of the enabled/disabled tag. */
  tag?: (value: number) => ReactNode;
  /** The success message, instead of common.enabledOn / enabledOff. */
  success?: (row: T, on: boolean) => string;
}

/** Masks the middle of a phone number (138****5678) unless the server already did. */
export function maskPhone(value: string | null | undefined): string {
  const s = (value ?? '').trim();
  if (!s || s.includes('*')) return s;
  const digits = s.replace(/\D/g, '');
  if (digits.length < 7) return s;
  return `${s.slice(0, 3)}****${s.slice(-4)}`;
}

/** The enabled/disabled tag. */
export function StatusTag({ enabled }: { enabled: number }) {
  return enabled === 1 ? <Tag color="success">{t('common.enabled')}</Tag> : <Tag color="error">{t('common.disabled')}</Tag>;
}

export function columnKit<T extends object>({
  resource,
  can,
  confirm,
}: {
  resource?: Resource;
  can: (name: ActionName) => boolean;
  confirm: <A extends ActionName>(o: ConfirmCallOptions<A>) => Promise<boolean>;
}) {
  const title = (field: string) => labelOf(resource, field);
  return {
    title,
    text: (field: Key<T>, o: Partial<Col<T>> = {}): Col<T> => ({ title: title(field), dataIndex: field, key: field, ...o }),

    /** A contract enumeration's label, as a tag (colours by value optional). */
    enumTag: (field: Key<T>, items: EnumItem<string | number>[], o: Partial<Col<T>> & { colors?: Record<string, string> } = {}): Col<T> => {
      const { colors, ...rest } = o;
      return {
        title: title(field),
        dataIndex: field,
        key: field,
        render: (v: string | number) => {
          const item = items.find((i) => i.value === v);
          return item ? <Tag color={colors?.[String(v)]}>{pick(item, lang())}</Tag> : v;
        },
        ...rest,
      };
    },

    /** An ISO time as local "YYYY-MM-DD HH:mm"; the time wraps under the date in narrow tables. */
    time: (field: Key<T>, o: Partial<Col<T>> = {}): Col<T> => ({
      title: title(field),
      dataIndex: field,
      key: field,
      width: 104,
      render: (v: string) =>
        v ? (
          <span className="list-time" title={timeZoneLabel()}>
            {formatTime(v)}
          </span>
        ) : (
          '—'
        ),
      ...o,
    }),

    phone: (field: Key<T>, o: Partial<Col<T>> = {}): Col<T> => ({
      title: title(field),
      dataIndex: field,
      key: field,
      width: 116,
      render: (v: string) => maskPhone(v) || '—',
      ...o,
    }),

    /** The enabled switch bound to its action (with the question and the message); a tag when the caller may not call it. */
    enabled: <A extends ActionName>(c: EnabledColumn<T, A>, o: Partial<Col<T>> = {}): Col<T> => {
      const field = c.field ?? ('enabled' as Key<T>);
      const writable = can(c.action);
      const toggle = (row: T, on: boolean) => {
        const name = c.name(row);
        const ask = c.confirm ?? 'both';
        void confirm({
          action: c.action,
          input: c.input(row, on ? 1 : 0),
          direct: ask === 'none' || (ask === 'off' && on),
          content: on ? t('common.enableConfirm', { name }) : (c.offQuestion?.(row) ?? t('common.disableConfirm', { name })),
          success: c.success?.(row, on) ?? t(on ? 'common.enabledOn' : 'common.enabledOff', { name }),
        });
      };
      return {
        title: title('status'),
        dataIndex: field,
        key: field,
        // A small switch: the column is as wide as its header needs (headers never wrap).
        width: 76,
        align: 'center',
        render: (v: number, row) =>
          !writable || c.readOnly?.(row) ? (
            (c.tag?.(v) ?? <StatusTag enabled={v} />)
          ) : (
            <Switch
              size="small"
              checked={v === 1}
              disabled={c.disabled?.(row)}
              onChange={(on) => toggle(row, on)}
              aria-label={title('status')}
              data-testid={c.testId?.(row)}
            />
          ),
        ...o,
      };
    },

    /**
     * The delete link of a row: asks "delete “name”?", calls, says "deleted", refreshes the list.
     */
    remove: <A extends ActionName>(action: A, input: ActionInput<A>, name: string, o: Partial<RowActionBase> = {}): RowAction => ({
      key: 'delete',
      action,
      danger: true,
      onClick: () =>
        void confirm({ action, input, content: t('common.deleteConfirm', { name }), success: t('common.deleted'), danger: true }),
      ...o,
    }),

    /**
     * A link that asks, calls, says and refreshes the list (list/delist, publish/withdraw): the
     * question and message of `call`, the link's own key, label and test id in `link`.
     */
    confirmed: <A extends ActionName>(call: ConfirmCallOptions<A>, link: Omit<RowActionBase, 'onClick' | 'action'> & { key: string; label: ReactNode }): RowAction => ({
      ...link,
      action: call.action,
      onClick: () => void confirm(call),
    }),

    /**
     * Row actions: text links (no icons, so the fixed column stays narrow), then a "more" menu. An action whose `action` the caller may not call
     * is not shown. Fixed to the right; give it a width that fits its links.
     */
    actions: (items: (row: T) => RowAction[], o: Partial<Col<T>> & { moreTestId?: (row: T) => string } = {}): Col<T> => {
      const { moreTestId, ...rest } = o;
      return {
        title: t('common.actions'),
        key: 'actions',
        fixed: 'right',
        render: (_: unknown, row: T) => {
          const shown = items(row).filter((a) => !a.hidden && (!a.action || can(a.action)));
          const links = shown.filter((a) => !a.more);
          const more = shown.filter((a) => a.more);
          const icon = (a: RowAction) =>
            a.icon ?? (a.key === 'edit' ? <EditOutlined /> : a.key === 'delete' ? <DeleteOutlined /> : undefined);
          // The type makes a key without a label a common word.
          const label = (a: RowAction) => a.label ?? tFull(`common.${a.key as KeyOf<'common'>}`);
          return (
            <Space size={0} wrap={false} className="list-row-actions">
              {links.map((a) => {
                const button = (
                  <Button
                    key={a.key}
                    type="link"
                    size="small"
                    danger={a.danger}
                    disabled={a.disabled}
                    onClick={a.onClick}
                    data-testid={a.testId}
                  >
                    {label(a)}
                  </Button>
                );
                return a.tooltip ? (
                  <Tooltip key={a.key} title={a.tooltip}>
                    {button}
                  </Tooltip>
                ) : (
                  button
                );
              })}
              {more.length > 0 && (
                <Dropdown
                  menu={{
                    items: more.map((a) => ({ key: a.key, icon: icon(a), label: label(a), danger: a.danger, disabled: a.disabled })),
                    onClick: ({ key }) => more.find((a) => a.key === key)?.onClick(),
                  }}
                >
                  <Button type="link" size="small" data-testid={moreTestId?.(row)}>
                    {t('common.more')} <DownOutlined />
                  </Button>
                </Dropdown>
              )}
            </Space>
          );
        },
        ...rest,
      };
    },
  };
}

export type ColumnKit<T extends object> = ReturnType<typeof columnKit<T>>;

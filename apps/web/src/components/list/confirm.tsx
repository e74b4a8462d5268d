/**
 * confirm → call → message → invalidate, in one place:
 *
 *   const confirm = useConfirmCall();
 *   confirm({ content: t('common.deleteConfirm', { name }), action: 'as.m.system.role.deleteRoleById',
 *             input: { roleid }, success: t('common.deleted'), danger: true, invalidates: [LIST] });
 *
 * A refused call has had its message shown by the request client; the dialog closes either way
 * and the list is refreshed only after a success. `direct` skips the question (enabling, say).
 */
import { useCallback } from 'react';
import { App as AntApp } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ActionInput, ActionName, ActionOutput } from '@xinli/contract';
import { ApiError, call } from '../../api';

export interface ConfirmCallOptions<A extends ActionName> {
  action: A;
  input: ActionInput<A>;
  /** The question; ignored when `direct`. */
  content?: React.ReactNode;
  title?: React.ReactNode;
  /** The success message (default common.done); false for none. */
  success?: string | false;
  danger?: boolean;
  /** The OK button's words when "OK" does not say what happens (default common.ok). */
  okText?: string;
  /** Call without asking. */
  direct?: boolean;
  /** Query keys (action names) to refresh after a success. */
  invalidates?: ActionName[];
  /** After a success (and the refresh). */
  then?: (result: ActionOutput<A>) => void;
}

export function useConfirmCall() {
  const { t } = useTranslation();
  const { modal, message } = AntApp.useApp();
  const queryClient = useQueryClient();
  return useCallback(
    <A extends ActionName>(o: ConfirmCallOptions<A>): Promise<boolean> => {
      const run = async () => {
        try {
          const result = await call(o.action, o.input);
          if (o.success !== false) message.success(o.success ?? t('common.done'));
          await Promise.all((o.invalidates ?? []).map((key) => queryClient.invalidateQueries({ queryKey: [key] })));
          o.then?.(result);
          return true;
        } catch (err) {
          if (!(err instanceof ApiError)) message.error(err instanceof Error ? err.message : String(err));
          return false;
        }
      };
      if (o.direct) return run();
      return new Promise<boolean>((resolve) => {
        modal.confirm({
          title: o.title ?? t('common.systemPrompt'),
          content: o.content,
          okText: o.okText ?? t('common.ok'),
          cancelText: t('common.cancel'),
          okButtonProps: o.danger ? { danger: true } : undefined,
          onOk: () => run().then(resolve),
          onCancel: () => resolve(false),
        });
      });
    },
    [t, modal, message, queryClient],
  );
}

import { useState } from 'react';
import { App as AntApp, Alert, Button, Modal, Select, Space, Table, Tag } from 'antd';
import { QrcodeOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LinkEntryHour } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { useSession } from '../../auth/session';
import { useAccess } from '../../components/access';
import { ErrorState, useConfirmCall } from '../../components/list';
import { useInstitutions } from '../../components/pickers';
import { formatTime } from '../../lib/format';

const HOURS = 'as.m.user.getLinkEntryHours';
const HOUR = 3_600_000;

/**
 * Persons registered through an institution's QR link, per hour (issue 27 item 4): staff see a
 * burst (many in one hour, many with warnings) and undo it; the confirmation names how many
 * persons, cases and reports go, as the server counted them just before.
 */
export function LinkEntriesButton() {
  const { t } = useTranslation();
  const { can } = useAccess();
  const [open, setOpen] = useState(false);
  if (!can(HOURS)) return null;
  return (
    <>
      <Button icon={<QrcodeOutlined />} onClick={() => setOpen(true)} data-testid="link-entries-open">
        {t('archives.linkEntry.open')}
      </Button>
      {open && <LinkEntriesDialog onClose={() => setOpen(false)} />}
    </>
  );
}

/** The institutions that may have a link: the caller's own, or (a provider) its institutions. */
function useLinkInstitutions() {
  const { session } = useSession();
  const managed = useInstitutions();
  const own = session?.user;
  const list = managed.list.filter((i) => i.musertype !== '005');
  if (!list.length && own && own.musertype !== '005') return [{ musercode: own.musercode, insname: own.insname }];
  return list.map((i) => ({ musercode: i.musercode, insname: i.insname }));
}

function LinkEntriesDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const confirm = useConfirmCall();
  const { can } = useAccess();
  const queryClient = useQueryClient();
  const institutions = useLinkInstitutions();
  const [picked, setPicked] = useState<string>();
  const musercode = picked ?? institutions[0]?.musercode;
  const hours = useAction(HOURS, { musercode: musercode ?? '', days: 7 }, { enabled: !!musercode });
  const [busy, setBusy] = useState<string>();

  const undo = async (h: LinkEntryHour) => {
    const window = { musercode: musercode!, startat: h.hourstart, endat: new Date(Date.parse(h.hourstart) + HOUR).toISOString() };
    setBusy(h.hourstart);
    try {
      const preview = await call('as.m.user.previewUndoLinkEntries', window);
      if (!preview.persons) {
        message.info(t('archives.linkEntry.nothing'));
        return;
      }
      await confirm({
        action: 'as.m.user.undoLinkEntries',
        input: { ...window, count: preview.persons },
        title: t('archives.linkEntry.undoTitle'),
        content: t('archives.linkEntry.undoConfirm', { hour: hourLabel(h.hourstart), ...preview }),
        success: t('archives.linkEntry.undone', { count: preview.persons }),
        danger: true,
        invalidates: [HOURS, 'as.m.cuser.getCUserArchivePageList', 'as.m.cuser.getCUserPageList'],
      });
    } catch {
      // The request client has shown the refusal.
    } finally {
      setBusy(undefined);
      void queryClient.invalidateQueries({ queryKey: [HOURS] });
    }
  };

  return (
    <Modal
      open
      title={t('archives.linkEntry.title')}
      onCancel={onClose}
      footer={null}
      width={720}
      destroyOnHidden
      data-testid="link-entries"
    >
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Alert type="info" showIcon title={t('archives.linkEntry.help')} />
        {institutions.length > 1 && (
          <Select
            style={{ width: 280 }}
            value={musercode}
            onChange={setPicked}
            options={institutions.map((i) => ({ value: i.musercode, label: i.insname || i.musercode }))}
            data-testid="link-entries-institution"
          />
        )}
        {hours.isError ? (
          <ErrorState onRetry={() => void hours.refetch()} />
        ) : (
          <Table<LinkEntryHour>
            size="small"
            rowKey="hourstart"
            loading={hours.isLoading}
            dataSource={hours.data ?? []}
            pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
            locale={{ emptyText: t('archives.linkEntry.empty') }}
            columns={[
              { title: t('archives.linkEntry.hour'), dataIndex: 'hourstart', render: (v: string) => hourLabel(v) },
              { title: t('archives.linkEntry.count'), dataIndex: 'count', width: 100, align: 'right' },
              {
                title: t('archives.linkEntry.warnings'),
                dataIndex: 'warnings',
                width: 130,
                align: 'right',
                render: (v: number) => (v ? <Tag color="red">{v}</Tag> : 0),
              },
              { title: t('archives.linkEntry.undoneCol'), dataIndex: 'undone', width: 100, align: 'right' },
              {
                title: t('common.actions'),
                key: 'op',
                width: 100,
                render: (_: unknown, h) =>
                  can('as.m.user.undoLinkEntries') && h.count > h.undone ? (
                    <Button
                      size="small"
                      danger
                      loading={busy === h.hourstart}
                      onClick={() => void undo(h)}
                      data-testid={`link-entries-undo-${h.hourstart}`}
                    >
                      {t('archives.linkEntry.undo')}
                    </Button>
                  ) : null,
              },
            ]}
          />
        )}
      </Space>
    </Modal>
  );
}

/** An hour as "2026-11-21 16:00–17:00" in the browser's time. */
function hourLabel(iso: string): string {
  const start = formatTime(iso);
  const end = formatTime(new Date(Date.parse(iso) + HOUR).toISOString());
  return `${start}–${end.slice(11)}`;
}

/**
 * The navbar's warning bell: the unread count as a badge, the recent notifications in a
 * dropdown, new ones pushed without reloading through the server's event stream (any event reads
 * the count and the list again), and an antd notification for each new critical warning with a
 * link to its case. Notifications carry ids, a level and a text without a name (the server's
 * rule); nothing here adds one.
 */
import { useCallback, useRef, useState } from 'react';
import { App as AntApp, Badge, Button, Dropdown, Empty, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { ActionOutput } from '@xinli/contract';
import { call } from '../api';
import { actionQuery, useAction } from '../components/query';
import { RetryLine, RowItem, RowList } from '../components/list';
import { useLang } from '../lib/options';
import { useAccess } from '../components/access';
import { formatTime } from '../lib/format';
import { CASE_PAGE, caseLink } from '../features/links';
import { useEventStream } from './event-stream';
import './notifications.css';
import { useT } from '../i18n/useT';

const COUNT = 'as.m.warning.getNotificationCount';
const LIST = 'as.m.warning.getNotificationList';
const RECENT = { page: 1, pageSize: 10 };
type Notice = ActionOutput<typeof LIST>['rows'][number];

/** Notices to pop up: unread ones not seen before, one per case (`seen` is updated). */
export function freshAlerts(rows: Notice[], seen: Set<string>): Notice[] {
  const fresh = rows.filter((n) => !seen.has(n.noticeid) && !n.read);
  for (const n of rows) seen.add(n.noticeid);
  // Two warnings of one report (a critical item and its band) are one thing to act on.
  return fresh.filter((n, i) => fresh.findIndex((m) => m.caseid === n.caseid) === i);
}

export default function NotificationBell() {
  const k = useT('earlyWarning.notice');
  const { can } = useAccess();
  const enabled = can(COUNT);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { notification } = AntApp.useApp();
  const [open, setOpen] = useState(false);
  // Notices already on screen once (the first list read fills it without popping anything up).
  const seen = useRef<Set<string> | null>(null);

  const count = useAction(COUNT, {}, { silent: true });
  const list = useAction(LIST, RECENT, { silent: true, enabled: open });
  const lang = useLang();

  const goTo = useCallback(
    (caseid: string) => {
      setOpen(false);
      void navigate(caseLink(caseid));
    },
    [navigate],
  );

  // Events come in bursts (a report's two warnings): one check at a time, so a notice pops up once.
  const checking = useRef<Promise<void>>(Promise.resolve());
  const checkNew = useCallback(async () => {
    // The list's own query, so an open panel shows what was just checked; read again whatever its
    // age: the console keeps reads fresh for 10 s, and a warning within 10 s of the last read (the
    // stream's opening, another warning) was not popped up until some later event.
    const page = await queryClient.fetchQuery({ ...actionQuery(LIST, RECENT, lang, true), staleTime: 0 }).catch(() => null);
    if (!page) return;
    if (!seen.current) {
      seen.current = new Set(page.rows.map((n) => n.noticeid));
      return;
    }
    for (const n of freshAlerts(page.rows, seen.current)) {
      notification.warning({
        key: `case-${n.caseid}`,
        title: k(`kinds.${n.kind}`),
        description: n.text,
        duration: 0,
        placement: 'topRight',
        actions: (
          <Button
            type="primary"
            size="small"
            onClick={() => {
              notification.destroy(`case-${n.caseid}`);
              goTo(n.caseid);
            }}
            data-testid="notice-open-case"
          >
            {k('openCase')}
          </Button>
        ),
      });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [queryClient, notification, goTo, lang]);

  const refresh = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: [COUNT] });
    checking.current = checking.current.then(checkNew);
  }, [queryClient, checkNew]);

  useEventStream({ enabled, onEvent: refresh, onOpen: refresh });

  if (!enabled) return null;
  const unread = count.data?.unread ?? 0;
  const markAll = async () => {
    await call('as.m.warning.markNotificationsRead', {}).catch(() => undefined);
    await queryClient.invalidateQueries({ queryKey: [COUNT] });
    await queryClient.invalidateQueries({ queryKey: [LIST] });
  };

  const panel = (
    <div className="notice-panel" data-testid="notice-panel">
      <div className="notice-panel-head">
        <Typography.Text strong>{k('bell')}</Typography.Text>
        <Typography.Text type="secondary">{k('unread', { count: unread })}</Typography.Text>
      </div>
      {!list.data ? (
        // Nothing read yet: the error with a retry, else the spinner. A refresh that fails keeps what is shown.
        list.error ? (
          <div style={{ padding: 16 }}>
            <RetryLine message={k('loadFailed')} onRetry={() => void list.refetch()} retryTestId="notice-retry" />
          </div>
        ) : (
          <Spin style={{ display: 'block', padding: 24 }} />
        )
      ) : list.data.rows.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k('empty')} />
      ) : (
        <RowList className="notice-list">
          {list.data.rows.map((n) => (
            <RowItem key={n.noticeid} className={n.read ? 'notice-item' : 'notice-item notice-unread'}>
              <div
                role="button"
                tabIndex={0}
                onClick={() => goTo(n.caseid)}
                onKeyDown={(e) => {
                  if (e.key !== 'Enter' && e.key !== ' ') return;
                  e.preventDefault(); // Space would scroll the panel
                  goTo(n.caseid);
                }}
                data-testid="notice-item"
              >
                <Space orientation="vertical" size={2} style={{ width: '100%' }}>
                  <Space size={6}>
                    <Tag color={n.level === 'critical' ? '#9b1c1c' : '#f5a623'} variant="solid">
                      {k(`kinds.${n.kind}`)}
                    </Tag>
                    <Typography.Text type="secondary">{formatTime(n.createdat)}</Typography.Text>
                  </Space>
                  <Typography.Text>{n.text}</Typography.Text>
                </Space>
              </div>
            </RowItem>
          ))}
        </RowList>
      )}
      <div className="notice-panel-foot">
        <Button type="link" size="small" disabled={!unread} onClick={() => void markAll()} data-testid="notice-mark-all">
          {k('markAll')}
        </Button>
        <Button
          type="link"
          size="small"
          onClick={() => {
            setOpen(false);
            void navigate(CASE_PAGE);
          }}
        >
          {k('viewAll')}
        </Button>
      </div>
    </div>
  );

  return (
    <Dropdown open={open} onOpenChange={setOpen} trigger={['click']} popupRender={() => panel} placement="bottomRight">
      <Tooltip title={k('bell')} open={open ? false : undefined}>
        <Button type="text" aria-label={k('bell')} data-testid="notice-bell" data-unread={unread}>
          <Badge count={unread} size="small" overflowCount={99} data-testid="notice-badge">
            <BellOutlined style={{ fontSize: 16 }} />
          </Badge>
        </Button>
      </Tooltip>
    </Dropdown>
  );
}

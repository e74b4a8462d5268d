/**
 * The bell: the unread count from the server; an event from the stream reads the count again
 * and pops up each new critical notification (its text, never a name) with a link to the case;
 * notifications already there when the page opened do not pop up; no bell without the code.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';

const roles = { current: [] as string[] };
const server = { unread: 1, rows: [] as object[], listFails: false };
const stream: { onEvent?: () => void; onOpen?: () => void } = {};
const notice = (id: string, read = false) => ({
  noticeid: id,
  kind: 'critical',
  caseid: `C-${id}`,
  level: 'critical',
  text: `危急预警：恒信科技 · PHQ-9 危机条目 (${id})`,
  read,
  createdat: '2026-11-20T02:00:00Z',
});

vi.mock('../api', async (original) => {
  const real = await original<typeof import('../api')>();
  return {
    ...real,
    call: vi.fn(async (name: string) => {
      if (name === 'as.m.warning.getNotificationCount') return { unread: server.unread };
      if (name === 'as.m.warning.getNotificationList') {
        if (server.listFails) throw new Error('网络错误');
        return { total: server.rows.length, rows: server.rows };
      }
      return null;
    }),
  };
});
vi.mock('../auth', async (original) => {
  const real = await original<typeof import('../auth')>();
  return {
    ...real,
    usePermission: () => ({ roles: roles.current, hasCode: (c: string) => roles.current.includes(c), hasAny: () => false }),
  };
});
vi.mock('./event-stream', () => ({
  useEventStream: (o: { enabled: boolean; onEvent: () => void; onOpen?: () => void }) => {
    stream.onEvent = o.enabled ? o.onEvent : undefined;
    stream.onOpen = o.enabled ? o.onOpen : undefined;
  },
}));

const { default: NotificationBell, freshAlerts } = await import('./NotificationBell');
const { queryClient: consoleClient } = await import('../query-client');

let path = '';
function Where() {
  const l = useLocation();
  path = l.pathname + l.search;
  return null;
}
function mount() {
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <>
            <NotificationBell />
            <Where />
          </>
        ),
      },
    ],
    { initialEntries: ['/home'] },
  );
  // The console's own query options (reads kept fresh for 10 s among them), on a client of the test's own.
  const client = new QueryClient({ defaultOptions: consoleClient.getDefaultOptions() });
  return render(
    <QueryClientProvider client={client}>
      <AntApp>
        <RouterProvider router={router} />
      </AntApp>
    </QueryClientProvider>,
  );
}

describe('notification bell', { timeout: 60_000 }, () => {
  beforeEach(() => {
    roles.current = ['00013', '00046'];
    server.unread = 1;
    server.rows = [notice('N1')];
    server.listFails = false;
  });
  afterEach(() => vi.clearAllMocks());

  it('freshAlerts: only unread notices not seen before', () => {
    const seen = new Set(['N1']);
    const rows = [notice('N1'), notice('N2'), notice('N3', true), { ...notice('N4'), caseid: 'C-N2' }] as Parameters<typeof freshAlerts>[0];
    // N2 and N4 are of one case: one popup.
    expect(freshAlerts(rows, seen).map((n) => n.noticeid)).toEqual(['N2']);
    expect(freshAlerts(rows, seen)).toEqual([]);
  });

  it('shows the count; an event brings the new count and pops up the new critical warning with a link to its case', async () => {
    mount();
    await waitFor(() => expect(screen.getByTestId('notice-badge').textContent).toContain('1'));
    // The stream opens: what is there already is not popped up.
    await act(async () => stream.onOpen?.());
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByText('查看个案')).toBeNull();

    server.unread = 2;
    server.rows = [notice('N2'), notice('N1')];
    await act(async () => stream.onEvent?.());
    await waitFor(() => expect(screen.getByTestId('notice-badge').textContent).toContain('2'));
    const open = await screen.findByTestId('notice-open-case');
    expect(screen.getByText('危急预警：恒信科技 · PHQ-9 危机条目 (N2)')).toBeTruthy();
    expect(screen.queryByText(/\(N1\)/)).toBeNull();
    fireEvent.click(open);
    await waitFor(() => expect(path).toBe('/earlyWarning/earlyWarning?state=all&caseid=C-N2'));
  });

  it('a critical warning seconds after the stream opened, or after another, pops up too (the list is read again, however fresh)', async () => {
    mount();
    await act(async () => stream.onOpen?.());
    await new Promise((r) => setTimeout(r, 100));
    server.rows = [notice('N2'), notice('N1')];
    await act(async () => stream.onEvent?.());
    await screen.findByText('危急预警：恒信科技 · PHQ-9 危机条目 (N2)');
    server.rows = [notice('N3'), notice('N2'), notice('N1')];
    await act(async () => stream.onEvent?.());
    await screen.findByText('危急预警：恒信科技 · PHQ-9 危机条目 (N3)');
  });

  it('the dropdown lists the recent notifications; one opens its case from the keyboard, as a button does', async () => {
    mount();
    fireEvent.click(await screen.findByTestId('notice-bell'));
    const [item] = await screen.findAllByTestId('notice-item');
    expect(screen.getAllByTestId('notice-item')).toHaveLength(1);
    expect(screen.getByText('1 条未读')).toBeTruthy();
    fireEvent.keyDown(item!, { key: ' ' });
    await waitFor(() => expect(path).toBe('/earlyWarning/earlyWarning?state=all&caseid=C-N1'));
  });

  it('a failed read of the list offers a retry, and a failed refresh keeps the notifications on screen', async () => {
    server.listFails = true;
    mount();
    fireEvent.click(await screen.findByTestId('notice-bell'));
    expect(await screen.findByText('通知加载失败')).toBeTruthy();
    server.listFails = false;
    fireEvent.click(screen.getByTestId('notice-retry'));
    expect((await screen.findAllByTestId('notice-item')).length).toBe(1);
    server.listFails = true;
    await act(async () => stream.onEvent?.());
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.getAllByTestId('notice-item')).toHaveLength(1);
    expect(screen.queryByText('通知加载失败')).toBeNull();
  });

  it('no bell and no stream without the warning code', async () => {
    roles.current = ['00017'];
    mount();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('notice-bell')).toBeNull();
    expect(stream.onEvent).toBeUndefined();
  });
});

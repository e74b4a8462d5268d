/**
 * The warning page and its case drawer: the counts are the server's, the state tab and the
 * filters reach the list call and the export, a case opens from the URL with its reasons in
 * words, its report link and who did what; close is offered only with the warning code and
 * needs an outcome and a note; a caller with the follow-up code alone may record follow-ups
 * but sees no state changes.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import type { ReactNode } from 'react';
import type { CaseRow } from '@xinli/contract';

const calls: { name: string; input: Record<string, unknown> }[] = [];
const roles = { current: [] as string[] };

const row = (o: Partial<CaseRow>): CaseRow => ({
  caseid: 'C1',
  musercode: 'I0004',
  insname: '恒信科技',
  cusercode: 'CU1',
  realname: '张三',
  appid: '000000003',
  state: 'open',
  level: 'critical',
  colour: '#9b1c1c',
  kinds: ['critical_item'],
  reason: 'PHQ-9 第 9 题（自伤念头）选择了“一半以上的天数”',
  warningcount: 1,
  assignee: '',
  assigneename: '',
  outcome: null,
  openedat: '2026-11-20T02:00:00Z',
  lastwarningat: '2026-11-20T02:00:00Z',
  acknowledgedat: null,
  escalatedat: null,
  closedat: null,
  nextdate: '',
  overdue: false,
  ...o,
});

const detail = {
  case: row({ state: 'followup', assignee: 'U1', assigneename: '王老师', nextdate: '2026-11-21', overdue: true }),
  warnings: [
    {
      warningid: 'W1',
      caseid: 'C1',
      kind: 'critical_item',
      level: 'critical',
      colour: '#9b1c1c',
      reason: 'PHQ-9 第 9 题（自伤念头）选择了“一半以上的天数”',
      reportid: 'R9',
      formcode: 'PHQ9',
      formname: 'PHQ-9',
      stagecode: '',
      createdby: '',
      createdat: '2026-11-20T02:00:00Z',
    },
  ],
  events: [
    { at: '2026-11-20T02:00:00Z', by: '', byname: '', from: '', to: 'open', what: 'warning', note: '' },
    { at: '2026-11-20T03:00:00Z', by: 'U1', byname: '王老师', from: 'open', to: 'followup', what: 'state', note: '' },
  ],
  followups: [],
};

vi.mock('../../api', async (original) => {
  const real = await original<typeof import('../../api')>();
  return {
    ...real,
    call: vi.fn(async (name: string, input: Record<string, unknown>) => {
      calls.push({ name, input });
      switch (name) {
        case 'as.m.warning.getCasePageList':
          return {
            total: 2,
            rows: [
              row({}),
              row({ caseid: 'C2', realname: '李四', level: 'attention', colour: '#f5a623', state: 'acknowledged', kinds: ['band'] }),
            ],
            counts: { critical: 7, attention: 3, open: 5 },
          };
        case 'as.m.warning.getCase':
          return detail;
        case 'as.m.app.getAppList':
          return [{ appid: '000000003', appname: '职场人群', scenecode: '', iconurl: '' }];
        case 'as.m.warning.markNotificationsRead':
          return { unread: 0 };
        case 'as.m.system.muser.selectInstitutionList':
          return [];
        default:
          return null;
      }
    }),
  };
});
vi.mock('../../auth', async (original) => {
  const real = await original<typeof import('../../auth')>();
  return {
    ...real,
    usePermission: () => ({ roles: roles.current, hasCode: (c: string) => roles.current.includes(c), hasAny: () => false }),
    useSession: () => ({ session: { user: { userid: 'U1' } } }),
  };
});

const { default: EarlyWarningLevel } = await import('./earlyWarningLevel');
const { default: CaseDrawer } = await import('../../features/warnings/CaseDrawer');

let location = '';
function Where() {
  location = useLocation().search;
  return null;
}

function mount(url: string, element: ReactNode) {
  const router = createMemoryRouter(
    [
      {
        path: '/earlyWarning/earlyWarning',
        element: (
          <>
            {element}
            <Where />
          </>
        ),
      },
    ],
    { initialEntries: [url] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <AntApp>
        <RouterProvider router={router} />
      </AntApp>
    </QueryClientProvider>,
  );
}
const named = (name: string) => calls.filter((c) => c.name === name);

describe('crisis warning page', { timeout: 60_000 }, () => {
  beforeEach(() => {
    calls.length = 0;
    roles.current = ['00013', '00046'];
  });
  afterEach(() => vi.clearAllMocks());

  it('shows the server’s counts; the state tab and filters reach the list call', async () => {
    mount('/earlyWarning/earlyWarning?level=critical', <EarlyWarningLevel />);
    await screen.findByText('李四');
    expect(within(screen.getByTestId('warning-count-critical')).getByText('7')).toBeTruthy();
    expect(within(screen.getByTestId('warning-count-attention')).getByText('3')).toBeTruthy();
    expect(within(screen.getByTestId('warning-count-open')).getByText('5')).toBeTruthy();
    expect(named('as.m.warning.getCasePageList')[0].input).toEqual({ level: 'critical', page: 1, pageSize: 20 });

    fireEvent.click(within(screen.getByTestId('case-state-tabs')).getByText('已结案'));
    await waitFor(() => expect(location).toBe('?level=critical&state=closed'));
    await waitFor(() =>
      expect(named('as.m.warning.getCasePageList').at(-1)!.input).toEqual({ level: 'critical', state: 'closed', page: 1, pageSize: 20 }),
    );
    // The export is offered to the warning code; the settings are not (issue 27 §5: their own code).
    expect(screen.getByTestId('warning-export')).toBeTruthy();
    expect(screen.queryByTestId('warning-settings')).toBeNull();
  });

  it('offers the warning settings only to the settings code (0004601), not to the case code alone', async () => {
    roles.current = ['00013', '00046', '0004601'];
    mount('/earlyWarning/earlyWarning', <EarlyWarningLevel />);
    await screen.findByText('李四');
    expect(screen.getByTestId('warning-settings')).toBeTruthy();
  });

  it('opens the case from the URL: reasons in words, report link, history; close needs an outcome and a note', async () => {
    mount('/earlyWarning/earlyWarning?caseid=C1', <EarlyWarningLevel />);
    const drawer = await screen.findByTestId('case-drawer');
    await within(drawer).findByTestId('case-actions');
    expect(within(drawer).getByTestId('warning-reason').textContent).toContain('PHQ-9 第 9 题');
    expect(within(drawer).getByTestId('warning-reason').textContent).toContain('危机条目');
    expect(within(drawer).getByTestId('warning-report').getAttribute('href')).toBe('/echarts/web?reportid=R9');
    const events = within(drawer).getAllByTestId('case-event');
    expect(events[0].textContent).toContain('王老师');
    expect(events[0].textContent).toContain('待确认 → 跟进中');
    expect(events[1].textContent).toContain('系统');
    // Opening the case reads its notifications.
    await waitFor(() => expect(named('as.m.warning.markNotificationsRead')[0]?.input).toEqual({ caseid: 'C1' }));
    // In follow-up: no acknowledge or start, but close.
    expect(within(drawer).queryByTestId('case-acknowledge')).toBeNull();
    expect(within(drawer).queryByTestId('case-start')).toBeNull();
    fireEvent.click(within(drawer).getByTestId('case-close'));
    const dialog = await screen.findByTestId('close-dialog');
    await act(async () => void fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ })));
    await waitFor(() => expect(dialog.querySelectorAll('.ant-form-item-explain-error').length).toBe(2));
    expect(named('as.m.warning.closeCase')).toHaveLength(0);

    fireEvent.mouseDown(within(dialog).getByTestId('close-outcome').querySelector('input')!);
    fireEvent.click(await screen.findByText('已转介'));
    fireEvent.change(within(dialog).getByTestId('close-note'), { target: { value: '已转介至市精神卫生中心' } });
    await act(async () => void fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ })));
    await waitFor(() =>
      expect(named('as.m.warning.closeCase')[0]?.input).toEqual({ caseid: 'C1', outcome: 'referred', note: '已转介至市精神卫生中心' }),
    );
  });

  it('the follow-up code alone: follow-ups and rescreening, no state changes or closing', async () => {
    roles.current = ['00015', '00017'];
    mount('/earlyWarning/earlyWarning', <CaseDrawer caseid="C1" onClose={() => undefined} />);
    const actions = await screen.findByTestId('case-actions');
    expect(within(actions).getByTestId('case-followup')).toBeTruthy();
    expect(within(actions).getByTestId('case-rescreen')).toBeTruthy();
    expect(within(actions).queryByTestId('case-close')).toBeNull();
    expect(within(actions).queryByTestId('case-assign')).toBeNull();
    // Not the warning code: the notifications are not its to mark.
    expect(named('as.m.warning.markNotificationsRead')).toHaveLength(0);
  });
});

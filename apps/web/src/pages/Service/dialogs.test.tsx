/**
 * The apps dialog of an institution: its choices are offered only once the account's present
 * apps are here, so a late answer cannot undo a choice already made (a CI run clicked an app
 * while the account's list was on its way; the list then arrived and unticked it).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import type { MUserRow } from '@xinli/contract';
import '../../i18n';

const ADULTS = { appid: '000000001', appname: '职场成人' };
const STUDENTS = { appid: '000000002', appname: '青少年学生' };

const calls: { name: string; input: unknown }[] = [];
/** The account's own apps, answered when the test says so. */
let answerTheirs: (apps: (typeof ADULTS)[]) => void = () => undefined;
vi.mock('../../api', async (original) => {
  const real = await original<typeof import('../../api')>();
  return {
    ...real,
    call: vi.fn(async (name: string, input: { musercode?: string }) => {
      calls.push({ name, input });
      if (name !== 'as.m.app.muser.getMUserAppList') return null;
      if (input.musercode === 'P1') return [ADULTS, STUDENTS];
      return new Promise((resolve) => (answerTheirs = resolve));
    }),
  };
});
vi.mock('../../auth', async (original) => {
  const real = await original<typeof import('../../auth')>();
  return { ...real, useSession: () => ({ session: { user: { musercode: 'P1' } } }) };
});
vi.mock('../../components/access', async (original) => {
  const real = await original<typeof import('../../components/access')>();
  return { ...real, useAccess: () => ({ can: () => true }) };
});
vi.mock('../../components/pickers', async (original) => {
  const real = await original<typeof import('../../components/pickers')>();
  return { ...real, useStages: () => ({ loading: false, options: [] }) };
});

const { default: AppsDialog } = await import('./AppsDialog');

const account = { musercode: 'M9', insname: '晨光实验中学' } as MUserRow;

beforeEach(() => {
  calls.length = 0;
});

describe('the apps dialog', () => {
  it('offers the apps only when the account’s own are here, and sends what the user then chose', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <AntApp>
          <AppsDialog account={account} onClose={() => undefined} />
        </AntApp>
      </QueryClientProvider>,
    );
    // The caller's apps are here, the account's are not: nothing to tick yet.
    await waitFor(() => expect(calls.filter((c) => c.name === 'as.m.app.muser.getMUserAppList')).toHaveLength(2));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText(STUDENTS.appname)).toBeNull();
    // Nor a save: it would send a form the read has not filled.
    expect(screen.getByRole('button', { name: /确\s*定/ }).hasAttribute('disabled')).toBe(true);

    answerTheirs([ADULTS]);
    fireEvent.click(await screen.findByText(STUDENTS.appname));
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.some((c) => c.name === 'as.m.app.muser.insertMUserApp')).toBe(true));
    expect(calls.find((c) => c.name === 'as.m.app.muser.insertMUserApp')!.input).toEqual({
      musercode: 'M9',
      appids: [ADULTS.appid, STUDENTS.appid],
    });
  });
});

/**
 * The apps and respondent entry dialogs of an institution: their fields are offered only once what
 * they read is here, so a late answer cannot undo a choice or a word already given (a CI run clicked
 * an app while the account's list was on its way, and the list then unticked it; another typed a
 * welcome the entry's read then emptied).
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
/** The institution's respondent entry, answered when the test says so. */
let answerEntry: (entry: object) => void = () => undefined;
vi.mock('../../api', async (original) => {
  const real = await original<typeof import('../../api')>();
  return {
    ...real,
    call: vi.fn(async (name: string, input: { musercode?: string }) => {
      calls.push({ name, input });
      if (name === 'as.m.user.getMUserClient') return new Promise((resolve) => (answerEntry = resolve));
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
const { default: ClientDialog } = await import('./ClientDialog');

const account = { musercode: 'M9', insname: '晨光实验中学' } as MUserRow;

beforeEach(() => {
  calls.length = 0;
});

const renderIn = (dialog: React.ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AntApp>{dialog}</AntApp>
    </QueryClientProvider>,
  );

describe('the respondent entry dialog', () => {
  it('shows no field until the entry is read, then the entry’s own welcome (a welcome typed before was undone by the read)', async () => {
    renderIn(<ClientDialog account={account} onClose={() => undefined} />);
    await waitFor(() => expect(calls.some((c) => c.name === 'as.m.user.getMUserClient')).toBe(true));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('client-welcome')).toBeNull();

    answerEntry({ musercode: 'M9', title: '晨光实验中学', welcome: '欢迎参加', qrcodeurl: 'http://127.0.0.1/r/abcdefghijklmnop' });
    expect(((await screen.findByTestId('client-welcome')) as HTMLTextAreaElement).value).toBe('欢迎参加');
  });
});

describe('the apps dialog', () => {
  it('offers the apps only when the account’s own are here, and sends what the user then chose', async () => {
    renderIn(<AppsDialog account={account} onClose={() => undefined} />);
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

import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import type { UserRow } from '@xinli/contract';
import { hashPassword } from '../../auth';
import '../../i18n';

const stored = {
  userid: 'U2',
  musercode: 'M1',
  insname: '滨江第一中学',
  sysusername: 'wang',
  realname: '王老师',
  phonenumber: '13800138000',
  email: '',
  sex: '',
  deptid: 'D1',
  deptname: '德育处',
  enabled: 1,
  remark: '班主任',
  roles: [],
  roleids: ['R1'],
  createdat: '2026-01-01T00:00:00Z',
};
const calls: { name: string; input: unknown }[] = [];
vi.mock('../../api', async (original) => {
  const real = await original<typeof import('../../api')>();
  return {
    ...real,
    call: vi.fn(async (name: string, input: { userid?: string }) => {
      calls.push({ name, input });
      if (name === 'as.m.system.user.selectUserById')
        return { user: input.userid ? stored : null, roles: [{ roleid: 'R1', rolename: '咨询师', grantable: true }] };
      if (name === 'as.m.system.user.selectDeptTreeList') return [];
      return null;
    }),
  };
});
vi.mock('../../auth', async (original) => {
  const real = await original<typeof import('../../auth')>();
  return { ...real, useSession: () => ({ session: { user: { musercode: 'M1' } } }) };
});
// One institution, the caller's own: no institution field.
vi.mock('../../components/pickers', async (original) => {
  const real = await original<typeof import('../../components/pickers')>();
  return { ...real, useInstitutions: () => ({ list: [], many: false, own: 'M1', nameOf: (c: string) => c }) };
});

const { default: UserDialog } = await import('./UserDialog');

function open(user: UserRow | null, deptid?: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AntApp>
        <UserDialog open user={user} deptid={deptid} onClose={() => undefined} />
      </AntApp>
    </QueryClientProvider>,
  );
}

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });
const ok = () => fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
const sent = (name: string) => calls.filter((c) => c.name === name).map((c) => c.input);

describe('the staff user dialog', () => {
  beforeEach(() => {
    calls.length = 0;
  });

  it('sends a new user with the input defaults, in the department it was opened for, the password hashed', async () => {
    open(null, 'D1');
    // No gender is assumed: the select shows its placeholder.
    expect(screen.getByText('请选择性别')).toBeTruthy();
    type('user-realname', '周老师');
    type('user-sysusername', ' groupwarn1 ');
    type('user-password', 'Warn2468');
    type('user-confirm', 'Warn2468');
    ok();
    await waitFor(() => expect(sent('as.m.system.user.insertUser')).toHaveLength(1));
    expect(sent('as.m.system.user.insertUser')[0]).toEqual({
      sysusername: 'groupwarn1',
      pwd: hashPassword('Warn2468'),
      realname: '周老师',
      phonenumber: '',
      email: '',
      sex: '',
      deptid: 'D1',
      roleids: [],
      enabled: 1,
      remark: '',
    });
  });

  it('opens an edited user as read afresh and sends its fields and id', async () => {
    open({ ...stored, phonenumber: '138****8000' });
    await waitFor(() => expect(screen.getByTestId<HTMLInputElement>('user-realname').value).toBe('王老师'));
    expect(screen.getByDisplayValue('13800138000')).toBeTruthy();
    ok();
    await waitFor(() => expect(sent('as.m.system.user.updateUser')).toHaveLength(1));
    expect(sent('as.m.system.user.updateUser')[0]).toEqual({
      userid: 'U2',
      realname: '王老师',
      phonenumber: '13800138000',
      email: '',
      sex: '',
      deptid: 'D1',
      roleids: ['R1'],
      enabled: 1,
      remark: '班主任',
    });
  });
});

/**
 * The department and staff user dialogs: the values they open with and the bodies they send
 * (issue 29 item 8 moved both to values from the action input; these pass before and after).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import type { ReactNode } from 'react';
import { hashPassword } from '../../auth';
import '../../i18n';

const deptFields = {
  parentid: 'D1',
  deptname: '德育处',
  sort: 3,
  leader: '王老师',
  phonenumber: '0571-8888888',
  email: 'dy@example.com',
  enabled: 0,
};
const dept = { deptid: 'D2', musercode: 'M1', insname: '滨江第一中学', usercount: 2, createdat: '2026-01-01T00:00:00Z', ...deptFields };
const userFields = {
  realname: '王老师',
  phonenumber: '13800138000',
  email: '',
  sex: '',
  deptid: 'D1',
  roleids: ['R1'],
  enabled: 1,
  remark: '班主任',
};
/** The user as the edit form reads it afresh (phone in full). */
const stored = {
  userid: 'U2',
  musercode: 'M1',
  insname: '滨江第一中学',
  sysusername: 'wang',
  deptname: '德育处',
  roles: [],
  secondfactor: false,
  createdat: '2026-01-01T00:00:00Z',
  ...userFields,
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
      return name.startsWith('as.m.system.dept.select') || name === 'as.m.system.user.selectDeptTreeList' ? [] : null;
    }),
  };
});
vi.mock('../../auth', async (original) => {
  const real = await original<typeof import('../../auth')>();
  return { ...real, useSession: () => ({ session: { user: { musercode: 'M1' } } }) };
});
// A caller allowed every action the dialogs call (useAction sends only what the caller may call).
vi.mock('../../components/access', async (original) => {
  const real = await original<typeof import('../../components/access')>();
  return { ...real, useAccess: () => ({ can: () => true }) };
});
// One institution, the caller's own: no institution field.
vi.mock('../../components/pickers', async (original) => {
  const real = await original<typeof import('../../components/pickers')>();
  return { ...real, useInstitutions: () => ({ list: [], many: false, own: 'M1', nameOf: (c: string) => c }) };
});

const { default: DeptDialog } = await import('./DeptDialog');
const { default: UserDialog } = await import('./UserDialog');

function show(dialog: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AntApp>{dialog}</AntApp>
    </QueryClientProvider>,
  );
}

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });
const ok = () => fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
const sent = (name: string) => calls.filter((c) => c.name === name).map((c) => c.input);
/** The one body sent to the action. */
async function sentOnce(name: string) {
  await waitFor(() => expect(sent(name)).toHaveLength(1));
  return sent(name)[0];
}

beforeEach(() => {
  calls.length = 0;
});

describe('the department dialog', () => {
  it('sends a new department with the input defaults under the parent it was opened for', async () => {
    show(<DeptDialog open dept={null} parentid="D1" onClose={() => undefined} />);
    type('dept-name', '教务处');
    ok();
    expect(await sentOnce('as.m.system.dept.insertDept')).toEqual({
      parentid: 'D1',
      deptname: '教务处',
      sort: 0,
      leader: '',
      phonenumber: '',
      email: '',
      enabled: 1,
    });
  });

  it('refuses a new department without a name', async () => {
    show(<DeptDialog open dept={null} onClose={() => undefined} />);
    ok();
    expect(await screen.findByText('请输入部门名称')).toBeTruthy();
    expect(sent('as.m.system.dept.insertDept')).toHaveLength(0);
  });

  it('sends an edited department with its fields and id', async () => {
    show(<DeptDialog open dept={dept} onClose={() => undefined} />);
    expect(screen.getByTestId<HTMLInputElement>('dept-name').value).toBe('德育处');
    ok();
    expect(await sentOnce('as.m.system.dept.updateDept')).toEqual({ deptid: 'D2', ...deptFields });
  });
});

describe('the staff user dialog', () => {
  it('sends a new user with the input defaults, in the department it was opened for, the password hashed', async () => {
    show(<UserDialog open user={null} deptid="D1" onClose={() => undefined} />);
    // No gender is assumed: the select shows its placeholder.
    expect(screen.getByText('请选择性别')).toBeTruthy();
    type('user-realname', '周老师');
    type('user-sysusername', ' groupwarn1 ');
    type('user-password', 'Warn2468');
    type('user-confirm', 'Warn2468');
    ok();
    expect(await sentOnce('as.m.system.user.insertUser')).toEqual({
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
    show(<UserDialog open user={{ ...stored, phonenumber: '138****8000' }} onClose={() => undefined} />);
    await waitFor(() => expect(screen.getByTestId<HTMLInputElement>('user-realname').value).toBe('王老师'));
    expect(screen.getByDisplayValue('13800138000')).toBeTruthy();
    ok();
    expect(await sentOnce('as.m.system.user.updateUser')).toEqual({ userid: 'U2', ...userFields });
  });
});

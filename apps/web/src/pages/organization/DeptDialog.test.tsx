import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import type { DeptRow } from '@xinli/contract';
import '../../i18n';

const calls: { name: string; input: unknown }[] = [];
vi.mock('../../api', async (original) => {
  const real = await original<typeof import('../../api')>();
  return {
    ...real,
    call: vi.fn(async (name: string, input: unknown) => {
      calls.push({ name, input });
      return name.startsWith('as.m.system.dept.select') ? [] : null;
    }),
  };
});
// One institution, the caller's own: no institution field.
vi.mock('../../components/pickers', async (original) => {
  const real = await original<typeof import('../../components/pickers')>();
  return { ...real, useInstitutions: () => ({ list: [], many: false, own: 'M1', nameOf: (c: string) => c }) };
});

const { default: DeptDialog } = await import('./DeptDialog');

function open(dept: DeptRow | null, parentid?: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AntApp>
        <DeptDialog open dept={dept} parentid={parentid} onClose={() => undefined} />
      </AntApp>
    </QueryClientProvider>,
  );
}

const ok = () => fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
const sent = (name: string) => calls.filter((c) => c.name === name).map((c) => c.input);

describe('the department dialog', () => {
  beforeEach(() => {
    calls.length = 0;
  });

  it('sends a new department with the input defaults under the parent it was opened for', async () => {
    open(null, 'D1');
    fireEvent.change(screen.getByTestId('dept-name'), { target: { value: '教务处' } });
    ok();
    await waitFor(() => expect(sent('as.m.system.dept.insertDept')).toHaveLength(1));
    expect(sent('as.m.system.dept.insertDept')[0]).toEqual({
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
    open(null);
    ok();
    expect(await screen.findByText('请输入部门名称')).toBeTruthy();
    expect(sent('as.m.system.dept.insertDept')).toHaveLength(0);
  });

  it('sends an edited department with its fields and id', async () => {
    open({
      deptid: 'D2',
      musercode: 'M1',
      insname: '滨江第一中学',
      parentid: 'D1',
      deptname: '德育处',
      sort: 3,
      leader: '王老师',
      phonenumber: '0571-8888888',
      email: 'dy@example.com',
      enabled: 0,
      usercount: 2,
      createdat: '2026-01-01T00:00:00Z',
    });
    expect(screen.getByTestId<HTMLInputElement>('dept-name').value).toBe('德育处');
    ok();
    await waitFor(() => expect(sent('as.m.system.dept.updateDept')).toHaveLength(1));
    expect(sent('as.m.system.dept.updateDept')[0]).toEqual({
      deptid: 'D2',
      parentid: 'D1',
      deptname: '德育处',
      sort: 3,
      leader: '王老师',
      phonenumber: '0571-8888888',
      email: 'dy@example.com',
      enabled: 0,
    });
  });
});

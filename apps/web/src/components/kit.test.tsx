/**
 * Component tests of the console kit: filters live in the URL (a reload shows the same list), a
 * row action whose action the caller lacks is hidden, the form dialog refuses what the contract
 * refuses before calling the server, and the confirm helper refreshes the list.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, Input, Radio, Row, Select } from 'antd';
import type { ReactNode } from 'react';
import '../i18n';
import { labelOf } from '../lib/labels';
import { NAME_RULE, personActions, systemActions } from '@xinli/contract';

const calls: { name: string; input: unknown }[] = [];
const roles = { current: [] as string[] };

vi.mock('../api', async (original) => {
  const real = await original<typeof import('../api')>();
  return {
    ...real,
    call: vi.fn(async (name: string, input: unknown) => {
      calls.push({ name, input });
      if (name === 'as.m.system.role.selectRoleList')
        return {
          total: 1,
          rows: [
            {
              roleid: 'R1',
              musercode: 'M',
              insname: '',
              rolename: '咨询师',
              rolekey: 'counsellor',
              sort: 0,
              enabled: 1,
              remark: '',
              usercount: 0,
              createdat: '2026-01-01T00:00:00Z',
            },
          ],
        };
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

const { DataTable, f, ListPage, ListPagination, ListToolbar, SearchForm, useListPage } = await import('./list');
const { FormDialog, Field } = await import('./form');

function RoleList() {
  const list = useListPage('as.m.system.role.selectRoleList', { resource: 'authority.role', filters: [f.text('rolename'), f.enabled()] });
  return (
    <ListPage
      search={<SearchForm {...list.searchProps} />}
      toolbar={<ListToolbar {...list.toolbarProps} />}
      pagination={<ListPagination {...list.paginationProps} />}
    >
      <DataTable
        rowKey="roleid"
        columns={[
          list.col.text('rolename'),
          list.col.actions((r) => [
            { key: 'view', onClick: () => undefined, testId: 'act-view' },
            {
              key: 'delete',
              action: 'as.m.system.role.deleteRoleById',
              testId: 'act-delete',
              onClick: () =>
                void list.confirm({
                  action: 'as.m.system.role.deleteRoleById',
                  input: { roleid: r.roleid },
                  content: 'delete?',
                  success: 'gone',
                }),
            },
          ]),
        ]}
        {...list.tableProps}
      />
    </ListPage>
  );
}

let location = '';
function Where() {
  location = useLocation().search;
  return null;
}

function mount(url: string, element: ReactNode) {
  const router = createMemoryRouter(
    [
      {
        path: '/roles',
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

/** The role dialog (insertRole's rules) around the given fields. */
function mountRoleForm(onSubmit: (v: unknown) => Promise<unknown>, fields: ReactNode) {
  return mount(
    '/roles',
    <FormDialog
      open
      title="role"
      action={systemActions['as.m.system.role.insertRole']}
      resource="authority.role"
      onSubmit={onSubmit}
      onClose={() => undefined}
    >
      {fields}
    </FormDialog>,
  );
}

const listCalls = () => calls.filter((c) => c.name === 'as.m.system.role.selectRoleList');

describe('console kit', { timeout: 60_000 }, () => {
  beforeEach(() => {
    calls.length = 0;
    roles.current = ['000311'];
  });
  afterEach(() => vi.clearAllMocks());

  it('keeps filters and page in the URL: a reload shows the same list', async () => {
    const first = mount('/roles', <RoleList />);
    await waitFor(() => expect(listCalls().length).toBe(1));
    expect(listCalls()[0].input).toEqual({ page: 1, pageSize: 20 });
    fireEvent.change(screen.getByPlaceholderText('请输入角色名称'), { target: { value: ' 咨询 ' } });
    fireEvent.click(within(screen.getByTestId('list-search')).getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(location).toBe('?rolename=%E5%92%A8%E8%AF%A2'));
    await waitFor(() => expect(listCalls().at(-1)!.input).toEqual({ rolename: '咨询', page: 1, pageSize: 20 }));
    first.unmount();

    // The "reload": a fresh mount on the URL the list wrote, with a page and an enabled filter.
    calls.length = 0;
    mount('/roles?rolename=%E5%92%A8%E8%AF%A2&enabled=0&page=3&pageSize=50&other=kept', <RoleList />);
    await waitFor(() => expect(listCalls().length).toBe(1));
    expect(listCalls()[0].input).toEqual({ rolename: '咨询', enabled: 0, page: 3, pageSize: 50 });
    await waitFor(() => expect((screen.getByPlaceholderText('请输入角色名称') as HTMLInputElement).value).toBe('咨询'));
    // Reset clears the filters and the page but keeps parameters the list does not own.
    fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(location).toBe('?pageSize=50&other=kept'));
  });

  it('hides a row action whose action the caller may not call', async () => {
    roles.current = [];
    mount('/roles', <RoleList />);
    // Without 000311 the list itself is not fetched: the kit asks before calling.
    await new Promise((r) => setTimeout(r, 50));
    expect(listCalls().length).toBe(0);
    roles.current = ['00031'];
    const { unmount } = mount('/roles', <RoleListWithRows />);
    await screen.findByText('咨询师');
    expect(screen.getByTestId('act-view')).toBeTruthy();
    expect(screen.queryByTestId('act-delete')).toBeNull();
    unmount();
    roles.current = ['000311'];
    mount('/roles', <RoleListWithRows />);
    await waitFor(() => expect(screen.getAllByTestId('act-delete').length).toBeGreaterThan(0));
  });

  it('confirm → call → message → refreshes the list', async () => {
    mount('/roles', <RoleList />);
    await screen.findByText('咨询师');
    const before = listCalls().length;
    fireEvent.click(screen.getByTestId('act-delete'));
    const ok = await screen.findByRole('button', { name: /确\s*定/ });
    await act(async () => void fireEvent.click(ok));
    await waitFor(() =>
      expect(calls.some((c) => c.name === 'as.m.system.role.deleteRoleById' && (c.input as { roleid: string }).roleid === 'R1')).toBe(true),
    );
    await waitFor(() => expect(listCalls().length).toBe(before + 1));
    expect(await screen.findByText('gone')).toBeTruthy();
  });

  it('the form dialog refuses what the contract refuses before calling the server', async () => {
    const submit = vi.fn(async () => undefined);
    const errors: unknown[] = [];
    const onRejection = (e: PromiseRejectionEvent) => errors.push(e.reason);
    window.addEventListener('unhandledrejection', onRejection);
    mountRoleForm(
      submit,
      <>
        <Field name="rolename">
          <Input data-testid="role-name" />
        </Field>
        <Field name="rolekey">
          <Input data-testid="role-key" />
        </Field>
      </>,
    );
    const name = (await screen.findByTestId('role-name')) as HTMLInputElement;
    // The schema's limit is checked, not enforced by cutting what is typed or pasted.
    expect(name.maxLength).toBeLessThan(0);
    const ok = screen.getByRole('button', { name: /确\s*定/ });
    // Empty submit: required messages, no call, no unhandled rejection.
    fireEvent.click(ok);
    expect(await screen.findByText('请输入角色名称')).toBeTruthy();
    expect(screen.getByText('请输入权限字符')).toBeTruthy();
    // Too long (typed past the input's limit, as a paste could) and a bad pattern.
    fireEvent.change(name, { target: { value: 'x'.repeat(31) } });
    fireEvent.change(screen.getByTestId('role-key'), { target: { value: '9lives' } });
    fireEvent.click(ok);
    expect(await screen.findByText('角色名称最多 30 个字符')).toBeTruthy();
    expect(await screen.findByText(/权限字符.*(格式|字母)/)).toBeTruthy();
    expect(submit).not.toHaveBeenCalled();
    // What the contract accepts goes through.
    fireEvent.change(name, { target: { value: '咨询师' } });
    fireEvent.change(screen.getByTestId('role-key'), { target: { value: 'counsellor' } });
    fireEvent.click(ok);
    await waitFor(() => expect(submit).toHaveBeenCalledWith({ rolename: '咨询师', rolekey: 'counsellor' }));
    window.removeEventListener('unhandledrejection', onRejection);
    expect(errors).toEqual([]);
  });

  it('one message per field: a choice asks to choose, a typed field to enter; a name is refused by its rule, never cut', async () => {
    const submit = vi.fn(async () => undefined);
    mount(
      '/roles',
      <FormDialog open title="person" action={personActions['as.m.cuser.insertCUser']} resource="archives.person" onSubmit={submit} onClose={() => undefined}>
        {/* A page's own required rule on top of the contract's (as the person dialog had): still one message. */}
        <Field name="appid" rules={[{ required: true, message: '请选择人群' }]} required>
          <Select options={[{ value: '000000001', label: '孕产妇' }]} data-testid="p-app" />
        </Field>
        <Field name="realname">
          <Input data-testid="p-name" />
        </Field>
        <Field name="gender">
          <Radio.Group options={[{ value: '02', label: '女' }]} />
        </Field>
      </FormDialog>,
    );
    const name = (await screen.findByTestId('p-name')) as HTMLInputElement;
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    const errors = () => [...document.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent);
    await waitFor(() => expect(errors()).toEqual(['请选择人群', '请输入姓名', '请选择性别']));
    // A long name is kept as typed (no maxLength cuts it) and refused with the limit.
    expect(name.maxLength).toBeLessThan(0);
    fireEvent.change(name, { target: { value: '林'.repeat(60) } });
    expect(name.value).toHaveLength(60);
    await waitFor(() => expect(errors()).toContain('姓名最多 50 个字符'));
    // An emoji: the rule is said.
    fireEvent.change(name, { target: { value: '林小雨😀' } });
    await waitFor(() => expect(errors()).toContain(NAME_RULE.zh));
    expect(submit).not.toHaveBeenCalled();
  });

  it('a field on a grid takes its columns, and a select asks to choose its label', async () => {
    mountRoleForm(
      async () => undefined,
      <>
        <Row>
          <Field span={12} name="rolename">
            <Input data-testid="role-name" />
          </Field>
          <Field name="enabled">
            <Select options={[]} data-testid="role-enabled" />
          </Field>
          <Field name="sort">
            <Select options={[]} placeholder="own words" data-testid="role-sort" />
          </Field>
        </Row>
      </>,
    );
    const name = await screen.findByTestId('role-name');
    expect(name.closest('.ant-col-12')).not.toBeNull();
    expect(screen.getByTestId('role-enabled').closest('.ant-col-12')).toBeNull();
    expect(screen.getByTestId('role-enabled').textContent).toContain(`请选择${labelOf('authority.role', 'enabled')}`);
    // A placeholder the page gives is kept.
    expect(screen.getByTestId('role-sort').textContent).toContain('own words');
  });
});

/** A list on an action the caller may read with 00031 … the role list answers regardless (mocked). */
function RoleListWithRows() {
  const list = useListPage('as.m.system.role.selectRoleList', { resource: 'authority.role' });
  const rows = list.rows ?? [];
  return (
    <DataTable
      rowKey="roleid"
      rows={roles.current.includes('000311') ? rows : [{ roleid: 'R1', rolename: '咨询师' } as (typeof rows)[number]]}
      columns={[
        list.col.text('rolename'),
        list.col.actions(() => [
          { key: 'view', onClick: () => undefined, testId: 'act-view' },
          { key: 'delete', action: 'as.m.system.role.deleteRoleById', testId: 'act-delete', onClick: () => undefined },
        ]),
      ]}
    />
  );
}

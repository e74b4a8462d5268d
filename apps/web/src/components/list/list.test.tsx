import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { Form, Input } from 'antd';
import '../../i18n/console';
import { dropEmpty } from './SearchForm';
import { ListPagination, SearchForm, dateShortcuts, decodeFilters, encodeFilters, f } from './index';
import { filterLabel, fromFormValues, toFormValues } from './filters';
import i18n from '../../i18n';
import dayjs from 'dayjs';

// antd renders slowly in jsdom on a busy machine: a generous budget, not a speed check.
describe('list pieces', { timeout: 30_000 }, () => {
  it('pagination shows total, size options 15/50/100/200 and a jumper, hidden when empty', () => {
    const { container, rerender } = render(<ListPagination total={0} page={1} pageSize={10} onChange={() => undefined} />);
    expect(container.querySelector('.ant-pagination')).toBeNull();
    rerender(<ListPagination total={123} page={2} pageSize={10} onChange={() => undefined} />);
    expect(screen.getByText('共 123 条')).toBeTruthy();
    expect(container.querySelector('.ant-pagination-options-quick-jumper')).not.toBeNull();
    expect(container.querySelector('.ant-pagination-options-size-changer')).not.toBeNull();
    expect(container.querySelector('.ant-pagination-item-active')?.textContent).toBe('2');
  });

  it('search form drops blank filters and trims text', async () => {
    expect(dropEmpty({ a: '  x ', b: '', c: undefined, d: 0, e: '   ' })).toEqual({ a: 'x', d: 0 });
    const onSearch = vi.fn();
    render(
      <SearchForm onSearch={onSearch}>
        <Form.Item name="rolename" label="角色">
          <Input data-testid="f" />
        </Form.Item>
      </SearchForm>,
    );
    fireEvent.change(screen.getByTestId('f'), { target: { value: ' 咨询 ' } });
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await vi.waitFor(() => expect(onSearch).toHaveBeenCalledWith({ rolename: '咨询' }), { timeout: 10_000 });
  });

  it('date ranges offer last week, last month (30 days) and last three months (90 days)', () => {
    const now = dayjs('2026-03-31T15:00:00');
    const spans = dateShortcuts((k) => k, now).map((s) => [s.label, s.value[1].diff(s.value[0], 'day')]);
    expect(spans).toEqual([
      ['common.shortcuts.lastWeek', 7],
      ['common.shortcuts.lastMonth', 30],
      ['common.shortcuts.lastThreeMonths', 90],
    ]);
  });

  it('URL parameters are read by filter kind; invalid values are dropped', () => {
    const defs = [
      f.text('name'),
      f.enabled(),
      f.enumOf('formtype', [{ value: '01', zh: '一', en: 'one' }]),
      f.dateRange('created', ['from', 'to']),
    ];
    const params = new URLSearchParams('name=x&enabled=1&formtype=01&from=2026-01-01&to=2026-01-31&extra=1');
    expect(decodeFilters(defs, params)).toEqual({ name: 'x', enabled: 1, formtype: '01', from: '2026-01-01', to: '2026-01-31' });
    expect(decodeFilters(defs, new URLSearchParams('enabled=7&formtype=99&from=yesterday'))).toEqual({});
  });

  it('the institution filter is labelled on a page whose resource has no label for its field, in both languages', async () => {
    // organization.user names no musercode: the label was the raw key 'organization.user.musercode'.
    expect(filterLabel('organization.user', f.institution())).toBe('所属机构');
    expect(filterLabel('authority.role', f.enabled())).toBe('状态');
    // A resource's own label of the field still wins.
    expect(filterLabel('operations.goods', f.institution())).toBe(i18n.t('operations.goods.musercode'));
    await i18n.changeLanguage('en-US');
    try {
      expect(filterLabel('organization.user', f.institution())).toBe('Institution');
    } finally {
      await i18n.changeLanguage('zh-CN');
    }
  });

  it('a region filter travels as its three code fields, a level only under the one above it', () => {
    const defs = [f.region()];
    expect(decodeFilters(defs, new URLSearchParams('provincecode=440000&citycode=440100'))).toEqual({ provincecode: '440000', citycode: '440100' });
    // A city without its province, or a code that is not six digits, is no filter.
    expect(decodeFilters(defs, new URLSearchParams('citycode=440100'))).toEqual({});
    expect(decodeFilters(defs, new URLSearchParams('provincecode=44&citycode=440100'))).toEqual({});
    expect(fromFormValues(defs, { region: ['440000', '440100', '440106'] })).toEqual({ provincecode: '440000', citycode: '440100', districtcode: '440106' });
    expect(toFormValues(defs, { provincecode: '440000' })).toEqual({ region: ['440000'] });
    expect(toFormValues(defs, {})).toEqual({ region: undefined });
    const p = encodeFilters(defs, { provincecode: '110000' }, new URLSearchParams('citycode=440100&page=2'));
    expect(p.toString()).toBe('page=2&provincecode=110000');
  });
});

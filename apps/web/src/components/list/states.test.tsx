import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import '../../i18n/console';
import { DataTable, Loaded, Waiting } from './index';

const read = <T,>(data: T | undefined, error: unknown = null) => ({ data, error, refetch: vi.fn() });

describe('one read’s states', { timeout: 30_000 }, () => {
  it('shows the loading state, then the error with a retry that reads again', () => {
    const { rerender } = render(<Waiting query={read(undefined)} />);
    expect(screen.getByRole('status').textContent).toContain('加载中');
    const failed = read(undefined, new Error('网络错误'));
    rerender(<Waiting query={failed} />);
    expect(screen.getByText('数据加载失败')).toBeTruthy();
    expect(screen.getByText('网络错误')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    expect(failed.refetch).toHaveBeenCalledTimes(1);
  });

  it('keeps an answer on screen when a refresh in the background fails', () => {
    const { rerender } = render(<Loaded query={read('第一版')}>{(text) => <p>{text}</p>}</Loaded>);
    expect(screen.getByText('第一版')).toBeTruthy();
    rerender(<Loaded query={read('第一版', new Error('网络错误'))}>{(text) => <p>{text}</p>}</Loaded>);
    expect(screen.getByText('第一版')).toBeTruthy();
    expect(screen.queryByText('数据加载失败')).toBeNull();
    // An empty answer is an answer too.
    rerender(<Loaded query={read('')}>{(text) => <p data-testid="answer">{text}</p>}</Loaded>);
    expect(screen.getByTestId('answer')).toBeTruthy();
  });

  it('a table read for the first time says it loads, not that there is no data', () => {
    const columns = [{ title: '姓名', dataIndex: 'name' }];
    const { rerender, container } = render(<DataTable rows={undefined} loading columns={columns} />);
    expect(container.querySelector('.ant-spin-spinning')).toBeTruthy();
    expect(screen.queryByText('暂无数据')).toBeNull();
    rerender(<DataTable rows={[]} loading={false} columns={columns} />);
    expect(screen.getByText('暂无数据')).toBeTruthy();
  });
});

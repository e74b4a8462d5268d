/** The group task's sign-in screen: what it asks for, what it refuses before calling, what it sends. */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { setLang } from '../i18n';
import { TaskLoginScreen } from './TaskLoginScreen';

describe('task sign-in screen', () => {
  it('asks for each missing field, then sends the code without spaces in capitals', () => {
    setLang('zh-CN');
    const onLogin = vi.fn();
    render(
      <TaskLoginScreen initial={{ taskcode: 'ab cd-2345', studentno: '', realname: '' }} error={null} busy={false} onLogin={onLogin} />,
    );
    expect(screen.getByLabelText('任务码')).toHaveProperty('value', 'ab cd-2345');
    fireEvent.click(screen.getByTestId('r-task-start'));
    expect(screen.getByRole('alert').textContent).toBe('请输入学号');
    fireEvent.change(screen.getByLabelText('学号'), { target: { value: ' 2026001 ' } });
    fireEvent.click(screen.getByTestId('r-task-start'));
    expect(screen.getByRole('alert').textContent).toBe('请输入姓名');
    expect(onLogin).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('姓名'), { target: { value: '林小雨' } });
    fireEvent.click(screen.getByTestId('r-task-start'));
    expect(onLogin).toHaveBeenCalledWith({ taskcode: 'ABCD2345', studentno: '2026001', realname: '林小雨' });
  });

  it('asks for the slip’s six-digit PIN when the task wants one, and sends it', () => {
    setLang('zh-CN');
    const onLogin = vi.fn();
    render(<TaskLoginScreen initial={{ taskcode: 'ABCD2345', studentno: '2026001', realname: '林小雨' }} error={null} busy={false} needPin onLogin={onLogin} />);
    fireEvent.click(screen.getByTestId('r-task-start'));
    expect(screen.getByRole('alert').textContent).toBe('请输入纸条上的6位口令');
    fireEvent.change(screen.getByLabelText('口令'), { target: { value: '12345' } });
    fireEvent.click(screen.getByTestId('r-task-start'));
    expect(onLogin).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('口令'), { target: { value: ' 012345 ' } });
    fireEvent.click(screen.getByTestId('r-task-start'));
    expect(onLogin).toHaveBeenCalledWith({ taskcode: 'ABCD2345', studentno: '2026001', realname: '林小雨', pin: '012345' });
  });

  it('asks for no PIN when the task has none', () => {
    setLang('zh-CN');
    render(<TaskLoginScreen initial={{ taskcode: 'ABCD2345', studentno: '', realname: '' }} error={null} busy={false} onLogin={() => {}} />);
    expect(screen.queryByLabelText('口令')).toBeNull();
  });

  it('shows the server’s refusal in the alert', () => {
    setLang('en-US');
    render(
      <TaskLoginScreen
        initial={{ taskcode: 'ABCD2345', studentno: '1', realname: 'x' }}
        error="Your number or name does not match the class list"
        busy={false}
        onLogin={() => {}}
      />,
    );
    expect(screen.getByRole('heading').textContent).toBe('Join your group assessment');
    expect(screen.getByRole('alert').textContent).toContain('does not match the class list');
  });

  it('marks the fields wrong only for a refusal, not for a failure to try again (network, a busy server)', () => {
    setLang('zh-CN');
    const initial = { taskcode: 'ABCD2345', studentno: '2026001', realname: '林小雨' };
    const { rerender } = render(<TaskLoginScreen initial={initial} error="服务器繁忙，请稍后再试" busy={false} onLogin={vi.fn()} onRetry={vi.fn()} />);
    expect(screen.getByLabelText('任务码').getAttribute('aria-invalid')).toBe('false');
    rerender(<TaskLoginScreen initial={initial} error="学号或姓名不正确" busy={false} onLogin={vi.fn()} />);
    expect(screen.getByLabelText('任务码').getAttribute('aria-invalid')).toBe('true');
  });
});


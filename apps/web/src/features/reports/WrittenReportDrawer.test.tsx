/**
 * The written report drawer: a failed report shows its error in words and a retry (never a text),
 * a draft shows its sections with risks critical first, the writer in plain words, the reports
 * it used, and is approved only after the question is confirmed.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import type { WrittenListRow, WrittenReport } from '@xinli/contract';
import '../../i18n';

const calls: { name: string; input: unknown }[] = [];
const answers: Record<string, unknown> = {};
vi.mock('../../api', async (original) => {
  const real = await original<typeof import('../../api')>();
  return {
    ...real,
    call: vi.fn(async (name: string, input: unknown) => {
      calls.push({ name, input });
      if (name in answers) return answers[name];
      throw new real.ApiError('unexpected call ' + name, -1);
    }),
  };
});

// Staff holding the page's code (001802): the drawer's buttons are shown.
vi.mock('../../auth', async (original) => {
  const real = await original<typeof import('../../auth')>();
  return { ...real, usePermission: () => ({ roles: ['001802'], hasCode: () => true, hasAny: () => true }) };
});

const { default: WrittenReportDrawer } = await import('./WrittenReportDrawer');

const person: WrittenListRow = {
  cusercode: 'C1',
  realname: '王小明',
  gender: '1',
  appid: '000000002',
  appname: '青少年学生',
  musercode: 'I0001',
  insname: '学校',
  reportcount: 2,
  lastreportat: '2026-03-01T02:00:00Z',
  writtenid: 'W1',
  state: 'draft',
  writer: 'rules',
  model: 'rules-1',
  progress: 100,
  error: null,
  createdat: '2026-03-02T01:59:00Z',
  writtenat: '2026-03-02T02:00:00Z',
  approvedat: null,
  stale: 0,
};

const report: WrittenReport = {
  writtenid: 'W1',
  cusercode: 'C1',
  realname: '王小明',
  musercode: 'I0001',
  insname: '学校',
  state: 'draft',
  writer: 'rules',
  model: 'rules-1',
  lang: 'zh-CN',
  sections: {
    summary: '近三个月的测评显示情绪问题加重。',
    findings: ['PHQ-9 由轻度升至中重度'],
    risk: { level: 'urgent', text: '第 9 题报告有自伤念头' },
    staffsteps: ['24 小时内面谈评估'],
    personmessage: '你最近的心情比以前更低落。',
    personsteps: ['感到难受时联系老师或拨打热线'],
  },
  progress: 100,
  error: null,
  sources: [{ reportid: 'R9', formname: 'PHQ-9', createdat: '2026-03-01T02:00:00Z' }],
  createdat: '2026-03-02T01:59:00Z',
  createdby: 'U0001',
  createdbyname: '张老师',
  editedbyname: '',
  approvedbyname: '',
  writtenat: '2026-03-02T02:00:00Z',
  editedat: null,
  editedby: null,
  approvedat: null,
  approvedby: null,
};

function renderDrawer(p: WrittenListRow) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <AntApp>
          <WrittenReportDrawer person={p} onClose={() => undefined} invalidates={['as.m.report.getAsai1UserReportPageList']} />
        </AntApp>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('written report drawer', { timeout: 120_000 }, () => {
  beforeEach(() => {
    calls.length = 0;
    for (const k of Object.keys(answers)) delete answers[k];
  });

  it('a failed report shows its error in words and a retry that queues it again; no sections', async () => {
    answers['as.m.report.getAsai1UserReport'] = { ...report, state: 'failed', error: '模型服务超时（30 秒）', sections: null, writtenat: null };
    answers['as.m.report.retryAsai1UserReport'] = null;
    renderDrawer({ ...person, state: 'failed' });
    expect((await screen.findByTestId('written-error')).textContent).toContain('模型服务超时（30 秒）');
    expect(screen.queryByTestId('written-summary')).toBeNull();
    expect(screen.queryByTestId('written-approve')).toBeNull();
    fireEvent.click(screen.getByTestId('written-retry'));
    await waitFor(() => expect(calls.some((c) => c.name === 'as.m.report.retryAsai1UserReport')).toBe(true));
    expect(calls.find((c) => c.name === 'as.m.report.retryAsai1UserReport')!.input).toEqual({ writtenid: 'W1' });
  });

  it('a draft shows the risk first, its sections, the writer and sources, and is approved after confirming', async () => {
    answers['as.m.report.getAsai1UserReport'] = report;
    answers['as.m.report.approveAsai1UserReport'] = null;
    renderDrawer(person);
    const risk = await screen.findByTestId('written-risk');
    // The urgent risk comes before every other section and is announced.
    const report_ = screen.getByTestId('written-report');
    expect(report_.firstElementChild!.contains(risk)).toBe(true);
    expect(risk.getAttribute('role')).toBe('alert');
    expect(within(risk).getByTestId('risk-level').textContent).toContain('紧急');
    expect(risk.textContent).toContain('自伤');
    expect(screen.getByTestId('written-staff-steps').textContent).toContain('24 小时内面谈评估');
    expect(screen.getByTestId('written-person-steps').textContent).toContain('拨打热线');
    expect(screen.getByTestId('written-person-message').textContent).toContain('心情');
    expect(screen.getByTestId('written-writer').textContent).toContain('规则撰写');
    expect(screen.getByTestId('written-meta').textContent).toContain('尚未审核');
    // Who asked for it by name, never by account code.
    expect(screen.getByTestId('written-meta').textContent).toContain('张老师');
    expect(screen.getByTestId('written-meta').textContent).not.toContain('U0001');
    expect(screen.getByTestId('written-source-R9').getAttribute('href')).toBe('/echarts/web?reportid=R9');
    fireEvent.click(screen.getByTestId('written-approve'));
    // Nothing is approved before the question is answered.
    expect(calls.some((c) => c.name === 'as.m.report.approveAsai1UserReport')).toBe(false);
    const ok = await screen.findByRole('button', { name: /确\s*定/ });
    fireEvent.click(ok);
    await waitFor(() => expect(calls.some((c) => c.name === 'as.m.report.approveAsai1UserReport')).toBe(true));
    expect(calls.find((c) => c.name === 'as.m.report.approveAsai1UserReport')!.input).toEqual({ writtenid: 'W1' });
  });
});

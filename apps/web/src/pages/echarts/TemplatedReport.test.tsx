/**
 * The custom report's page: the template's sections in its order and only those, and a warning
 * or a voided sheet shown to staff even when the template leaves out the summary that carries it.
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import type { ReportDetail, ReportLayout } from '@xinli/contract';
import '../../i18n';

vi.mock('../../api', async (original) => {
  const real = await original<typeof import('../../api')>();
  return { ...real, call: vi.fn(async () => ({ html: '' })) };
});
vi.mock('../../auth', async (original) => {
  const real = await original<typeof import('../../auth')>();
  return { ...real, usePermission: () => ({ roles: [], hasCode: () => false, hasAny: () => false }) };
});

const { default: TemplatedReport } = await import('./TemplatedReport');

const report: ReportDetail = {
  reportid: 'R1',
  cusercode: 'C1',
  realname: '王*',
  gender: '2',
  appid: '000000005',
  appname: '心理门诊',
  musercode: 'I0008',
  insname: '医院',
  plancode: 'P1',
  planname: '初诊评估',
  stagecode: 'S1',
  stagename: '初诊',
  formcode: 'F1',
  formname: '量表',
  version: 1,
  mentalstate: 4,
  level: 4,
  colour: '#f00',
  warning: 1,
  voided: 0,
  hidden: 0,
  createdat: '2026-11-20T02:00:00Z',
  indicators: [],
  warnings: [{ source: 'critical', reason: { zh: '第9题选择了“几乎每天”', en: 'Item 9 answered "nearly every day"' } }],
  answers: [],
  voidreason: null,
  comments: [],
  trend: [],
  norm: null,
  layout: null,
};

const layout = (sections: ReportLayout['sections']): ReportLayout => ({ name: '门诊模板', version: 2, title: '', headername: '医院', logo: null, sections, signoff: '' });

function show(r: ReportDetail, l: ReportLayout) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <AntApp>
          <TemplatedReport report={r} layout={l} />
        </AntApp>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('TemplatedReport', () => {
  it('shows the template sections in its order and only those', () => {
    show(report, layout(['signoff', 'answers']));
    const sections = [...document.querySelectorAll('[data-section]')].map((e) => e.getAttribute('data-section'));
    expect(sections).toEqual(['signoff', 'answers']);
    expect(screen.queryByTestId('report-summary')).toBeNull();
  });

  it('shows a warning on screen when the template has no summary', () => {
    show(report, layout(['answers']));
    expect(screen.getByTestId('report-warnings')).toBeTruthy();
    expect(screen.getByText('第9题选择了“几乎每天”')).toBeTruthy();
  });

  it('shows the warning once, in the summary, when the template has one', () => {
    show(report, layout(['summary', 'answers']));
    expect(screen.getAllByTestId('report-warnings')).toHaveLength(1);
    expect(screen.getByTestId('report-summary').querySelector('[data-testid="report-warnings"]')).not.toBeNull();
  });
});

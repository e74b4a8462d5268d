/**
 * The written report's state on the AI individual report page: what each state shows and offers,
 * when the list polls, the writer line, and the risk order (critical first, in the report colours).
 */
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { LevelColours } from '@xinli/contract';
import i18n from '../../i18n';
import type { WriterKind } from '@xinli/contract';
import { anyBusy, riskColour, riskStandsOut, RiskTag, rowActions, useWriterText, WRITTEN_STATES, WrittenStateTag } from './written-state';

function Writer({ writer, model, long }: { writer: WriterKind | null; model: string | null; long?: boolean }) {
  return <span data-testid="w">{useWriterText()(writer, model, long)}</span>;
}

describe('written report state', () => {
  it('offers generate, retry, open, approve and regenerate only where they make sense', () => {
    expect(rowActions('none')).toEqual(['generate']);
    expect(rowActions('queued')).toEqual([]);
    expect(rowActions('writing')).toEqual([]);
    expect(rowActions('failed')).toEqual(['retry', 'open']);
    expect(rowActions('draft')).toEqual(['open', 'approve', 'regenerate']);
    expect(rowActions('approved')).toEqual(['open', 'withdraw', 'regenerate']);
    // Only a draft can be approved (never a failed or half-written one), only an approved one withdrawn.
    for (const s of WRITTEN_STATES) {
      expect(rowActions(s).includes('approve')).toBe(s === 'draft');
      expect(rowActions(s).includes('withdraw')).toBe(s === 'approved');
      expect(rowActions(s).includes('retry')).toBe(s === 'failed');
    }
  });

  it('polls only while a row is queued or being written', () => {
    expect(anyBusy(undefined)).toBe(false);
    expect(anyBusy([{ state: 'none' }, { state: 'draft' }, { state: 'failed' }, { state: 'approved' }])).toBe(false);
    expect(anyBusy([{ state: 'draft' }, { state: 'queued' }])).toBe(true);
    expect(anyBusy([{ state: 'writing' }])).toBe(true);
  });

  it('shows each state in words, the progress of one being written and the error of a failed one', async () => {
    await i18n.changeLanguage('zh-CN');
    const { rerender } = render(<WrittenStateTag state="writing" progress={40} />);
    expect(screen.getByTestId('written-state').textContent).toContain('生成中');
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('40');
    rerender(<WrittenStateTag state="draft" />);
    expect(screen.getByTestId('written-state').textContent).toContain('待审核');
    expect(screen.queryByRole('progressbar')).toBeNull();
    rerender(<WrittenStateTag state="failed" error="模型服务超时" />);
    expect(screen.getByTestId('written-state').getAttribute('data-state')).toBe('failed');
    expect(screen.getByTestId('written-state').textContent).toContain('生成失败');
    await i18n.changeLanguage('en-US');
    rerender(<WrittenStateTag state="approved" />);
    expect(screen.getByTestId('written-state').textContent).toContain('Approved');
    await i18n.changeLanguage('zh-CN');
  });

  it('names the writer plainly: rule-based, or the LLM and its model', async () => {
    await i18n.changeLanguage('en-US');
    const { rerender } = render(<Writer writer="rules" model="rules-1" />);
    expect(screen.getByTestId('w').textContent).toContain('Rule-based writer');
    rerender(<Writer writer="llm" model="qwen2.5-7b-instruct" />);
    expect(screen.getByTestId('w').textContent).toContain('LLM: qwen2.5-7b-instruct');
    rerender(<Writer writer={null} model={null} />);
    expect(screen.getByTestId('w').textContent).toContain('—');
    await i18n.changeLanguage('zh-CN');
    rerender(<Writer writer="rules" model="rules-1" long />);
    expect(screen.getByTestId('w').textContent).toContain('规则撰写（本地规则 rules-1，未调用大模型）');
  });

  it('shows urgent and high risks in the dark end of the five-level colours, and makes them stand out', () => {
    expect(riskColour('urgent')).toBe(LevelColours[4]);
    expect(riskColour('high')).toBe(LevelColours[3]);
    expect(riskColour('none')).toBe(LevelColours[0]);
    expect(['urgent', 'high', 'moderate', 'low', 'none'].map((l) => riskStandsOut(l as never))).toEqual([true, true, false, false, false]);
    render(<RiskTag level="urgent" />);
    expect(screen.getByTestId('risk-level').textContent).toContain('紧急');
  });
});

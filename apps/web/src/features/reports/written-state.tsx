/**
 * The written report's state on the AI individual report page: its tag (with the progress of a
 * report being written), which actions a row offers, the writer line, and the risk order. Pure
 * and small so the component test can cover every state.
 */
import { Progress, Space, Tag, Tooltip } from 'antd';
import { LoadingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { writtenState, type RiskLevel, type WriterKind, type WrittenState } from '@xinli/contract';
import { levelColour } from '../../components/levels';
import { useT } from '../../i18n/useT';

export const WRITTEN_STATES = writtenState.options;

/** Queued or being written: the list polls while any row is busy. */
export const isBusy = (state: WrittenState) => state === 'queued' || state === 'writing';
export const anyBusy = (rows: readonly { state: WrittenState }[] | undefined) => !!rows?.some((r) => isBusy(r.state));

/** How often the list asks again while a report is being written. */
export const POLL_MS = 2000;

const COLOURS: Record<WrittenState, string | undefined> = {
  none: undefined,
  queued: 'default',
  writing: 'processing',
  failed: 'error',
  draft: 'warning',
  approved: 'success',
};

export type RowActionKey = 'generate' | 'retry' | 'open' | 'approve' | 'withdraw' | 'regenerate';

/**
 * What a row offers in each state: a person without a written report can be written for; a
 * failed one is retried (its error is in the tag's tooltip and the drawer); a draft is opened and
 * approved; an approved one can be withdrawn; a finished one can be written again. Nothing is
 * offered while it is queued or being written.
 */
export function rowActions(state: WrittenState): RowActionKey[] {
  switch (state) {
    case 'none':
      return ['generate'];
    case 'failed':
      return ['retry', 'open'];
    case 'draft':
      return ['open', 'approve', 'regenerate'];
    case 'approved':
      return ['open', 'withdraw', 'regenerate'];
    default:
      return [];
  }
}

/**
 * "Rule-based writer" or "LLM: <model>", so staff see plainly what produced the text; the long
 * form names the rule set's version too.
 */
export function useWriterText() {
  const w = useT('empower.written');
  return (writer: WriterKind | null | undefined, model: string | null | undefined, long = false) => {
    if (!writer) return '—';
    return w(`${long ? 'writerLong' : 'writers'}.${writer}`, { model: model || '—' });
  };
}

/** The state tag; a report being written shows its progress, a failed one its error on hover. */
export function WrittenStateTag({ state, progress, error }: { state: WrittenState; progress?: number | null; error?: string | null }) {
  const { t } = useTranslation();
  const w = useT('empower.written');
  const tag = (
    <Tag color={COLOURS[state]} data-testid="written-state" data-state={state} style={{ marginInlineEnd: 0 }}>
      {isBusy(state) && <LoadingOutlined style={{ marginInlineEnd: 4 }} />}
      {w(`states.${state}`)}
    </Tag>
  );
  if (state === 'writing' && progress !== null && progress !== undefined)
    return (
      <Space orientation="vertical" size={2} style={{ width: '100%' }}>
        {tag}
        <Progress percent={progress} size="small" aria-label={t('empower.written.progress', { progress })} />
      </Space>
    );
  if (state === 'failed' && error) return <Tooltip title={error}>{tag}</Tooltip>;
  return tag;
}

/** Risk levels, most severe first: urgent is the dark red of the five-level report colours. */
export const RISK_LEVELS = ['urgent', 'high', 'moderate', 'low', 'none'] as const satisfies readonly RiskLevel[];
const RISK_RANK: Record<RiskLevel, number> = { urgent: 4, high: 3, moderate: 2, low: 1, none: 0 };

export const riskColour = (level: RiskLevel) => levelColour(RISK_RANK[level]);
/** High and urgent risks are what staff must not miss: the drawer shows them before everything else. */
export const riskStandsOut = (level: RiskLevel) => RISK_RANK[level] >= 3;

export function RiskTag({ level }: { level: RiskLevel }) {
  const w = useT('empower.written');
  return (
    <Tag variant="solid" color={riskColour(level)} data-testid="risk-level" data-level={level} style={{ marginInlineEnd: 0 }}>
      {w(`levels.${level}`)}
    </Tag>
  );
}

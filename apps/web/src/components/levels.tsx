/**
 * Band levels in the five-level report colours: the level tag, the overall mental-state tag,
 * and the level names (used by the scale editor, the comments database and reports).
 */
import { Tag } from 'antd';
import { LevelColours, MentalState } from '@xinli/contract';
import { pick } from '../i18n';
import { useLang } from '../lib/options';
import { useT } from '../i18n/useT';

export const LEVELS = [0, 1, 2, 3, 4] as const;

/** The colour of a band level on the five-level scale (green .. dark red). */
export const levelColour = (level: number | null | undefined): string => LevelColours[Math.min(4, Math.max(0, level ?? 0))];

/** Band level label ("中度" / "Moderate") for levels 0..4. */
export function useLevelLabel() {
  const k = useT('evaluating.levels');
  return (level: number) => k(`l${level as (typeof LEVELS)[number]}`);
}

/**
 * A solid tag in the band's colour: what staff scan for in lists and results. `label` is the
 * band's own name when there is one, else the level's name.
 */
export function LevelTag({ level, colour, label }: { level: number | null | undefined; colour?: string | null; label?: string }) {
  const levelLabel = useLevelLabel();
  if (level === null || level === undefined) return null;
  return (
    <Tag variant="solid" color={colour || levelColour(level)} data-testid="level-tag" data-level={level} style={{ marginInlineEnd: 0 }}>
      {label || levelLabel(level)}
    </Tag>
  );
}

/** State 0 "none" (no banded indicator) is grey; good .. severe follow the report colours. */
const MENTAL_STATE_COLOURS = ['#8c8c8c', LevelColours[0], LevelColours[1], LevelColours[2], LevelColours[4]];

/** The overall mental state (0..4) as a coloured tag: state 1 good is green, 4 severe dark red. */
export function MentalStateTag({ state }: { state: number }) {
  const lang = useLang();
  const item = MentalState.find((m) => m.value === state);
  const colour = MENTAL_STATE_COLOURS[state] ?? MENTAL_STATE_COLOURS[0];
  return (
    <Tag variant="solid" color={colour} data-testid="mental-state-tag">
      {item ? pick(item, lang) : String(state)}
    </Tag>
  );
}

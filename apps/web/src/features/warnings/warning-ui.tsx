/**
 * Small pieces the warning pages share: the level and state tags, the option lists of the
 * contract's enumerations in the console language, and the staff a case can be assigned to.
 */
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  caseOutcome,
  caseState,
  ContactWayName,
  contactWay,
  enumLabel,
  warningKind,
  warningLevel,
  WARNING_LEVEL_COLOURS,
  type CaseState,
  type WarningLevel,
} from '@xinli/contract';
import { useAction } from '../../components/query';
import { useAccess } from '../../components/access';
import { useT } from '../../i18n/useT';
import type { Area, KeyOf } from '../../i18n/keys';

/** Critical in the scale's dark red, attention in its amber (the contract's colours). */
export function WarningLevelTag({ level, colour }: { level: WarningLevel; colour?: string }) {
  const k = useT('earlyWarning.case');
  return (
    <Tag
      variant="solid"
      color={colour || WARNING_LEVEL_COLOURS[level]}
      data-testid="warning-level"
      data-level={level}
      style={{ marginInlineEnd: 0 }}
    >
      {k(`levels.${level}`)}
    </Tag>
  );
}

const STATE_COLOURS: Record<CaseState, string> = { open: 'error', acknowledged: 'warning', followup: 'processing', closed: 'default' };

export function CaseStateTag({ state }: { state: CaseState }) {
  const k = useT('earlyWarning.case');
  return (
    <Tag color={STATE_COLOURS[state]} data-testid="case-state" data-state={state} style={{ marginInlineEnd: 0 }}>
      {k(`states.${state}`)}
    </Tag>
  );
}

/** Options of the warning enumerations in the console language. */
export function useWarningOptions() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  // Each value must be a key of its area: a contract value without its words fails the type check.
  const of = <A extends Area>(values: readonly NoInfer<KeyOf<A>>[], area: A) => values.map((v) => ({ value: v, label: t(`${area}.${v}`) }));
  return {
    levels: of(warningLevel.options, 'earlyWarning.case.levels'),
    kinds: of(warningKind.options, 'earlyWarning.case.kinds'),
    states: of(caseState.options, 'earlyWarning.case.states'),
    outcomes: of(caseOutcome.options, 'earlyWarning.case.outcomes'),
    // Follow-up ways take the contract's words, shared with the printed record.
    ways: contactWay.options.map((v) => ({ value: v, label: enumLabel(ContactWayName, v, lang) })),
  };
}

/**
 * The staff users a case can be assigned to, when the caller may read the staff list (user
 * management, 000313); otherwise `listed` is false and only "me" and "nobody" are offered.
 */
export function useStaff(musercode?: string) {
  const { can } = useAccess();
  const listed = can('as.m.system.user.selectUserList');
  const input = { page: 1, pageSize: 200, enabled: 1 as const, ...(musercode ? { musercode } : {}) };
  const q = useAction('as.m.system.user.selectUserList', input, { staleTime: 60_000 });
  return {
    listed,
    loading: q.isLoading && listed,
    options: (q.data?.rows ?? []).map((u) => ({ value: u.userid, label: u.realname || u.sysusername })),
  };
}

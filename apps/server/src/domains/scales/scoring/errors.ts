import type { LocalText } from '@xinli/contract';

/** What was wrong with an answer sheet; each kind lists the question numbers concerned. */
export type AnswerIssueKind = 'missing' | 'unknown' | 'duplicate' | 'outOfRange' | 'wrongKind' | 'invalidValue';
export interface AnswerIssue {
  kind: AnswerIssueKind;
  nos: number[];
}

/** One problem of a definition: where (a dotted path such as `indicators.2.bands`) and what. */
export interface DefinitionIssue {
  path: string;
  message: LocalText;
}

/**
 * Thrown by the engine for a sheet it refuses to score (`kind: 'answers'`) or a definition it
 * refuses to use (`kind: 'definition'`). `msg` is a complete {zh, en} sentence listing the
 * question numbers or definition paths, ready for the server's validation error:
 * `catch (e) { if (e instanceof ScoringError) invalid(e.msg); throw e; }`.
 */
export class ScoringError extends Error {
  constructor(
    readonly kind: 'answers' | 'definition',
    readonly msg: LocalText,
    readonly answerIssues: AnswerIssue[] = [],
    readonly definitionIssues: DefinitionIssue[] = [],
  ) {
    super(msg.en);
    this.name = 'ScoringError';
  }
}

const answerLabels: Record<AnswerIssueKind, LocalText> = {
  missing: { zh: '未作答', en: 'unanswered' },
  unknown: { zh: '题目不存在', en: 'no such question' },
  duplicate: { zh: '重复作答', en: 'answered more than once' },
  outOfRange: { zh: '选项超出范围', en: 'option out of range' },
  wrongKind: { zh: '答案形式与题型不符', en: 'answer does not fit the question type' },
  invalidValue: { zh: '填写的值无效', en: 'invalid value' },
};

/** One sentence naming every faulty question, grouped by problem. */
export function answerIssuesMessage(issues: AnswerIssue[]): LocalText {
  const zh = issues.map((i) => `${answerLabels[i.kind].zh}：第${i.nos.join('、')}题`).join('；');
  const en = issues.map((i) => `${answerLabels[i.kind].en}: question${i.nos.length > 1 ? 's' : ''} ${i.nos.join(', ')}`).join('; ');
  return { zh: `答卷无效（${zh}）`, en: `Invalid answer sheet (${en})` };
}

export function definitionIssuesMessage(issues: DefinitionIssue[]): LocalText {
  return {
    zh: `量表定义有误：${issues.map((i) => `${i.path}：${i.message.zh}`).join('；')}`,
    en: `Invalid scale definition: ${issues.map((i) => `${i.path}: ${i.message.en}`).join('; ')}`,
  };
}

/**
 * The definition validator: structure by the contract's zod schema, then cross-references the
 * schema cannot see (an indicator reading an unknown item, overlapping or gapped bands, a
 * critical rule on a missing question...). The scale editor's save and the library seed use it.
 */
import { formDefinition, type FormDefinition, type LocalText } from '@xinli/contract';
import { bandProblems } from './bands.js';
import { ScoringError, definitionIssuesMessage, type DefinitionIssue } from './errors.js';
import { indicatorRange, isChoice, isNumericFill, isScored, resolveItems } from './formulas.js';
import { ruleIssues } from './rules.js';

const dupes = <T>(list: readonly T[]): T[] => [...new Set(list.filter((x, i) => list.indexOf(x) !== i))];

/** Every cross-reference problem of a (structurally valid) definition; empty when it is usable. */
export function validateDefinition(def: FormDefinition): DefinitionIssue[] {
  const issues: DefinitionIssue[] = [];
  const add = (path: string, zh: string, en: string) => issues.push({ path, message: { zh, en } });
  const byNo = new Map(def.questions.map((q) => [q.no, q]));
  const indicatorCodes = new Set(def.indicators.map((i) => i.code));

  for (const no of dupes(def.questions.map((q) => q.no))) add('questions', `题号 ${no} 重复`, `question number ${no} is used twice`);
  def.questions.forEach((q, i) => {
    const p = `questions.${i}`;
    if (isChoice(q) && q.options.length < 2)
      add(p, `第${q.no}题是选择题，至少需要两个选项`, `question ${q.no} is a choice question and needs at least two options`);
    if (q.type === 0 && q.options.length > 0)
      add(p, `第${q.no}题是填空题，不能有选项`, `question ${q.no} is a fill-in and cannot have options`);
    if (q.type !== 0 && q.inputtype !== undefined)
      add(p, `第${q.no}题不是填空题，不能设输入类型`, `question ${q.no} is not a fill-in and cannot have an input type`);
    if (q.range && !isNumericFill(q))
      add(p, `第${q.no}题不是数字填空题，不能设取值范围`, `question ${q.no} is not a numeric fill-in and cannot have a range`);
    if (q.range && q.range.min > q.range.max) add(p, `第${q.no}题取值范围下限大于上限`, `question ${q.no} has a range with min above max`);
    if (q.reverse && !isScored(q)) add(p, `第${q.no}题不计分，不能反向计分`, `question ${q.no} has no score and cannot be reverse-scored`);
    if (q.reverse && isNumericFill(q) && !q.range)
      add(p, `第${q.no}题反向计分需要设定取值范围`, `question ${q.no} is reverse-scored and needs a range`);
    if (q.factor !== undefined && !indicatorCodes.has(q.factor))
      add(p, `第${q.no}题所属因子 ${q.factor} 不存在`, `question ${q.no} belongs to an unknown factor ${q.factor}`);
  });

  for (const code of dupes(def.indicators.map((i) => i.code)))
    add('indicators', `指标代码 ${code} 重复`, `indicator code ${code} is used twice`);
  def.indicators.forEach((ind, i) => {
    const p = `indicators.${i}`;
    const items = resolveItems(def, ind);
    if (items.length === 0) add(p, `指标 ${ind.code} 没有题目`, `indicator ${ind.code} reads no question`);
    for (const no of dupes(items)) add(p, `指标 ${ind.code} 重复引用第${no}题`, `indicator ${ind.code} reads question ${no} twice`);
    let itemsOk = true;
    for (const no of items) {
      const q = byNo.get(no);
      if (!q) {
        itemsOk = false;
        add(p, `指标 ${ind.code} 引用了不存在的第${no}题`, `indicator ${ind.code} reads question ${no}, which does not exist`);
      } else if (!isScored(q)) {
        itemsOk = false;
        add(p, `指标 ${ind.code} 引用的第${no}题不计分`, `indicator ${ind.code} reads question ${no}, which has no score`);
      } else if (!q.required) {
        // Scored items must be answered: a missing answer is rejected, never scored as 0.
        add(p, `指标 ${ind.code} 引用的第${no}题必须设为必答`, `indicator ${ind.code} reads question ${no}, which must be required`);
      }
    }
    if (ind.formula.op === 'weightedSum') {
      for (const w of ind.formula.weights)
        if (!items.includes(w.no))
          add(
            p,
            `指标 ${ind.code} 的权重指向未引用的第${w.no}题`,
            `indicator ${ind.code} weights question ${w.no}, which it does not read`,
          );
      for (const no of dupes(ind.formula.weights.map((w) => w.no)))
        add(p, `指标 ${ind.code} 第${no}题权重重复`, `indicator ${ind.code} weights question ${no} twice`);
    }
    if (itemsOk && items.length > 0) {
      for (const m of bandProblems(ind, indicatorRange(def, ind)))
        add(`${p}.bands`, `指标 ${ind.code}：${m.zh}`, `indicator ${ind.code}: ${m.en}`);
    }
  });

  def.critical.forEach((r, i) => {
    const p = `critical.${i}`;
    const q = byNo.get(r.no);
    if (!q) return add(p, `危机条目规则指向不存在的第${r.no}题`, `critical rule on question ${r.no}, which does not exist`);
    if (r.minScore === undefined && r.options === undefined)
      add(p, `第${r.no}题危机条目规则需设最低分或选项`, `critical rule on question ${r.no} needs a minimum score or options`);
    if (r.minScore !== undefined && !isScored(q))
      add(p, `第${r.no}题不计分，不能按分数预警`, `question ${r.no} has no score; its critical rule cannot use a score`);
    if (r.options) {
      if (!isChoice(q))
        add(p, `第${r.no}题不是选择题，不能按选项预警`, `question ${r.no} is not a choice question; its critical rule cannot use options`);
      else
        for (const o of r.options) if (o > q.options.length) add(p, `第${r.no}题没有第${o}个选项`, `question ${r.no} has no option ${o}`);
    }
  });

  def.validity.forEach((r, i) => {
    if (!indicatorCodes.has(r.indicator))
      add(`validity.${i}`, `效度规则指向不存在的指标 ${r.indicator}`, `validity rule on an unknown indicator ${r.indicator}`);
  });

  issues.push(...ruleIssues(def));

  def.mentalState?.indicators.forEach((code) => {
    const ind = def.indicators.find((x) => x.code === code);
    if (!ind) add('mentalState', `心理状态规则指向不存在的指标 ${code}`, `mental-state rule names an unknown indicator ${code}`);
    else if (ind.bands.length === 0)
      add('mentalState', `心理状态规则指向的指标 ${code} 没有分段`, `mental-state rule names indicator ${code}, which has no bands`);
  });
  return issues;
}

/**
 * Parses and validates a definition (as stored or as sent by the editor). Throws a
 * ScoringError of kind 'definition' listing every problem; returns the parsed definition
 * (defaults filled in) otherwise.
 */
export function parseDefinition(input: unknown): FormDefinition {
  const parsed = formDefinition.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({
      path: i.path.join('.') || '(root)',
      message: { zh: `格式错误：${i.message}`, en: `malformed: ${i.message}` } satisfies LocalText,
    }));
    throw new ScoringError('definition', definitionIssuesMessage(issues), [], issues);
  }
  const issues = validateDefinition(parsed.data);
  if (issues.length) throw new ScoringError('definition', definitionIssuesMessage(issues), [], issues);
  return parsed.data;
}

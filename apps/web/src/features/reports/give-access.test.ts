import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionTable, type ActionName } from '@xinli/contract';
import { canCall } from '../../components/access';

/**
 * The give dialog loads the plans and a plan's stages for whoever opens it: every account that
 * sees a button opening it must be allowed every action the dialog calls (issue 28: a hospital
 * saw "no permission" for the plan's stages). Checked code by code, so it holds for every demo
 * account and every role built from these codes: for each code that shows an opener, each action
 * of the dialog is allowed to a caller holding that code alone.
 */
const src = path.resolve(import.meta.dirname, '../..');
const dialogFile = path.join(src, 'features/reports/GiveDialog.tsx');

/** The buttons that open the dialog: the file and the action whose access shows the button. */
const OPENERS: Record<string, ActionName[]> = {
  'pages/empower/PersonList.tsx': ['as.m.user.insertCUserAssessCodes', 'as.m.user.insertCUserAssessCode'],
  'pages/archives/ArchiveDetail.tsx': ['as.m.user.insertCUserAssessCode'],
  'features/warnings/CaseDrawer.tsx': ['as.m.warning.rescreenCase'],
};

/** The actions a source file calls (`call('…'`) or reads (`useAction('…'`, `actionQuery('…'`). */
const actionsIn = (file: string): ActionName[] =>
  [...new Set([...readFileSync(file, 'utf8').matchAll(/\b(?:call|useAction|actionQuery)\(\s*['"](as\.[mc]\.[A-Za-z.]+)['"]/g)].map((m) => m[1]!))].filter(
    (n): n is ActionName => n in actionTable,
  );
/** The giving itself: each opener's own gate (an opener shows the button by the giving action it uses). */
const GIVING: ActionName[] = ['as.m.user.insertCUserAssessCode', 'as.m.user.insertCUserAssessCodes'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : /\.tsx?$/.test(f) && !/\.test\./.test(f) ? [p] : [];
  });
}

describe('the give dialog', () => {
  it('is opened only from the buttons listed here', () => {
    const openers = filesUnder(src)
      .filter((f) => f !== dialogFile && /<GiveDialog\b/.test(readFileSync(f, 'utf8')))
      .map((f) => path.relative(src, f).split(path.sep).join('/'))
      .sort();
    expect(openers).toEqual(Object.keys(OPENERS).sort());
  });

  it('can load everything it calls for every account that sees a button opening it', () => {
    const called = actionsIn(dialogFile);
    expect(called).toEqual(expect.arrayContaining(['as.m.exam.plan.getMultipleMUserExamPlanPage', 'as.m.exam.plan.getPlanStage', ...GIVING]));
    const loads = called.filter((a) => !GIVING.includes(a));
    const refused: string[] = [];
    for (const [file, gates] of Object.entries(OPENERS))
      for (const gate of gates) {
        const access = actionTable[gate].access;
        const showing = typeof access === 'object' ? access.codes : [];
        for (const code of showing)
          for (const action of loads)
            if (!canCall(action, [code])) refused.push(`${file}: code ${code} shows ${gate}, but ${action} is refused`);
      }
    expect(refused).toEqual([]);
  });
});

/**
 * The other dialogs of issue 28's journeys, the same way: the codes that show each dialog, and
 * the files whose calls it makes (the dialog and the hooks it uses). Any code that shows it must
 * be allowed every one of them.
 */
const shownBy = (...actions: ActionName[]) => [...new Set(actions.flatMap((a) => (typeof actionTable[a].access === 'object' ? (actionTable[a].access as { codes: string[] }).codes : [])))];
const DIALOGS: { files: string[]; codes: string[] }[] = [
  // Opened by the plan library's "new" and "edit" buttons.
  { files: ['pages/evaluating/plan/PlanEditor.tsx', 'pages/evaluating/plan/usePlanOptions.ts'], codes: shownBy('as.m.exam.plan.insertMUserExamPlan', 'as.m.exam.plan.updateMUserExamPlan') },
  // Opened from the plan library page (menu code 00002); its write buttons show on the caller's own plans.
  { files: ['pages/evaluating/plan/PlanDetail.tsx'], codes: ['00002'] },
];

describe.each(DIALOGS)('the dialog $files.0', ({ files, codes }) => {
  it('is allowed every call it makes for every code that shows it', () => {
    const called = [...new Set(files.flatMap((f) => actionsIn(path.join(src, f))))];
    expect(called.length).toBeGreaterThan(0);
    const refused = codes.flatMap((code) => called.filter((a) => !canCall(a, [code])).map((a) => `code ${code}: ${a} is refused`));
    expect(refused).toEqual([]);
  });
});

import type { DbOrTx } from '../../db/database.js';

/**
 * What scales takes from the domains that build on it. Assessments reads scales (forms, scoring),
 * so scales does not import it back: the composition root (domains/index.ts) hands this in with
 * `hookScales`, and the dependency goes one way.
 */
export interface ScaleHooks {
  /** How many results a form has (of one version when given): a form version with results is frozen (assessments domain). */
  resultCount(db: DbOrTx, formcode: string, version?: number): Promise<number>;
}

let hooks: ScaleHooks | undefined;

export function hookScales(given: ScaleHooks) {
  hooks = given;
}

/** The hooks handed in; without them a version with results could be edited in place, so it fails instead. */
export function scaleHooks(): ScaleHooks {
  if (!hooks) throw new Error('scales: no hooks were handed in (domains/index.ts calls hookScales)');
  return hooks;
}

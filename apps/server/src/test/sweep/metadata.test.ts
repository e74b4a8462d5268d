import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { action, catalogue, codes, type ActionDef } from '@xinli/contract';
import { metadataProblems } from './metadata.js';
import { publicActions, signedInActions } from './reviewed.js';

/**
 * The catalogue metadata every sweep relies on. A new action without it fails here, with the
 * file to change, so no action can slip past the sweeps unnoticed.
 */
describe('catalogue metadata for the security sweep', () => {
  it('is complete for every action', () => {
    expect(metadataProblems(catalogue as Record<string, ActionDef>)).toEqual([]);
  });

  it('names a grant-like action that does not say what it changes (issue 27), and accepts it once classified', () => {
    const write = (input: z.ZodType, extra: Partial<ActionDef> = {}): ActionDef =>
      action({ access: codes('000311'), kind: 'json', op: 'write', summary: 'planted', input, output: z.null(), ...extra });
    const planted: Record<string, ActionDef> = {
      'as.m.system.role.grantEverything': write(z.strictObject({ codes: z.array(z.string()) })),
      'as.m.scale.updateScoringSettings': write(z.strictObject({ threshold: z.int() })),
      'as.m.team.addMember': write(z.strictObject({ rows: z.array(z.strictObject({ pwd: z.string() })) })),
    };
    const problems = metadataProblems(planted);
    for (const name of Object.keys(planted)) expect(problems.some((p) => p.startsWith(`${name} looks like it changes`)), name).toBe(true);
    const classified = Object.fromEntries(Object.entries(planted).map(([n, d]) => [n, { ...d, changes: 'grants' as const }]));
    expect(metadataProblems(classified).filter((p) => p.includes('looks like it changes'))).toEqual([]);
  });

  it('lists the actions exempt from the permission sweep, each with its reason', () => {
    // Respondent actions (as.c.*) take only a respondent token: no staff caller reaches them at all.
    const open = Object.entries(catalogue as Record<string, ActionDef>)
      .filter(([, d]) => typeof d.access !== 'object' && d.access !== 'respondent')
      .map(([n]) => n);
    expect(open.sort()).toEqual([...Object.keys(publicActions), ...Object.keys(signedInActions)].sort());
    for (const reason of [...Object.values(publicActions), ...Object.values(signedInActions)]) expect(reason.length).toBeGreaterThan(10);
  });
});

import { describe, expect, it } from 'vitest';
import { catalogue, type ActionDef } from '@xinli/contract';
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

  it('lists the actions exempt from the permission sweep, each with its reason', () => {
    // Respondent actions (as.c.*) take only a respondent token: no staff caller reaches them at all.
    const open = Object.entries(catalogue as Record<string, ActionDef>)
      .filter(([, d]) => typeof d.access !== 'object' && d.access !== 'respondent')
      .map(([n]) => n);
    expect(open.sort()).toEqual([...Object.keys(publicActions), ...Object.keys(signedInActions)].sort());
    for (const reason of [...Object.values(publicActions), ...Object.values(signedInActions)]) expect(reason.length).toBeGreaterThan(10);
  });
});

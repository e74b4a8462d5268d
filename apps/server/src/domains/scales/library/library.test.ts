import { describe, expect, it } from 'vitest';
import { formDefinition } from '@xinli/contract';
import { validateDefinition } from '../scoring/validate.js';
import { builtInLibrary, builtInSources } from './index.js';

const MATERNITY = '000000001';
const STUDENTS = '000000002';
const WORKING = '000000003';
const OLDER = '000000004';

describe('built-in library', () => {
  it('holds the twelve instruments with stable form codes', () => {
    expect(builtInLibrary.map((d) => d.formcode).sort()).toEqual([
      'EPDS',
      'GAD7',
      'GDS15',
      'ISI',
      'MHT',
      'PHQ9',
      'PHQA',
      'PSS10',
      'SAS',
      'SCL90',
      'SDS',
      'UCLA3',
    ]);
  });

  it.each(builtInSources.map((s) => [s.formcode, s] as const))('%s passes the schema and the definition validator', (_, source) => {
    const parsed = formDefinition.parse(source);
    expect(validateDefinition(parsed)).toEqual([]);
    // Serialisable: a JSON round trip gives the same definition (what the database stores).
    expect(formDefinition.parse(JSON.parse(JSON.stringify(parsed)))).toEqual(parsed);
  });

  it.each(builtInLibrary.map((d) => [d.formcode, d] as const))(
    '%s has a licence note, a source and bands on its mental-state indicators',
    (_, d) => {
      expect(d.licence.zh.length).toBeGreaterThan(10);
      expect(d.licence.en.length).toBeGreaterThan(10);
      expect(d.source.length).toBeGreaterThan(10);
      expect(d.mentalState?.indicators.length).toBeGreaterThan(0);
      expect(d.formname.en).not.toBe('');
    },
  );

  it('carries the item text of the public-domain instruments only, placeholders elsewhere', () => {
    const full = builtInLibrary
      .filter((d) => d.fulltext)
      .map((d) => d.formcode)
      .sort();
    expect(full).toEqual(['GAD7', 'GDS15', 'PHQ9', 'PHQA']);
    for (const d of builtInLibrary) {
      const placeholders = d.questions.every((q) => q.text.zh === `第${q.no}题` && q.text.en === `Item ${q.no}`);
      expect(placeholders).toBe(!d.fulltext);
      if (d.fulltext) expect(d.questions.every((q) => q.text.en.length > 5)).toBe(true);
      else expect(d.licence.zh).toContain('量表编辑器');
    }
  });

  it('lists the population apps each instrument serves', () => {
    const served = (appid: string) => builtInLibrary.filter((d) => d.appids.includes(appid)).map((d) => d.formcode);
    expect(served(MATERNITY)).toEqual(expect.arrayContaining(['EPDS', 'PHQ9', 'GAD7', 'SDS', 'SAS']));
    expect(served(STUDENTS)).toEqual(expect.arrayContaining(['PHQA', 'GAD7', 'MHT', 'SCL90']));
    expect(served(WORKING)).toEqual(expect.arrayContaining(['PHQ9', 'GAD7', 'PSS10', 'ISI', 'SCL90']));
    expect(served(OLDER)).toEqual(expect.arrayContaining(['GDS15', 'UCLA3', 'PHQ9', 'GAD7', 'ISI']));
    expect(served(STUDENTS)).not.toContain('EPDS');
    expect(served(OLDER)).not.toContain('MHT');
  });
});

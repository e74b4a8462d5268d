/**
 * Every literal message key in the console's source exists in both languages, both languages
 * have the same keys, every area file is in the keys' type (keys.ts), and the common area is the
 * only one with shared words (no `<area>.common` block comes back).
 */
import { describe, expect, it } from 'vitest';
import i18n from './index';
import './console';
import keysSource from './keys.ts?raw';
import { caseState, warningKind, warningLevel } from '@xinli/contract';

// The respondent pages have their own typed catalogue (respondent/i18n.ts).
const sources = import.meta.glob<string>(
  ['../**/*.ts', '../**/*.tsx', '!../**/*.test.ts', '!../**/*.test.tsx', '!./areas/**', '!../respondent/**'],
  {
    eager: true,
    query: '?raw',
    import: 'default',
  },
);
const areaFiles = Object.keys(import.meta.glob(['./areas/*.ts', './areas/*/*.ts']));

type Tree = { [key: string]: string | Tree };
const leaves = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : leaves(v, `${prefix}${k}.`)));
const bundle = (lng: string) => i18n.getResourceBundle(lng, 'translation') as Tree;
/** Every area: the top of the resource tree (common, shell, authority, ...). */
const AREAS = Object.keys(bundle('zh-CN'));

describe('message keys', () => {
  it('literal keys resolve in zh and en', () => {
    const missing: string[] = [];
    let seen = 0;
    const pattern = new RegExp(`\\bt\\(\\s*['"\`]((?:${AREAS.join('|')})\\.[A-Za-z0-9_.]+)['"\`]`, 'g');
    for (const [file, text] of Object.entries(sources)) {
      for (const m of text.matchAll(pattern)) {
        seen += 1;
        for (const lng of ['zh-CN', 'en-US']) if (!i18n.exists(m[1], { lng })) missing.push(`${file}: ${m[1]} (${lng})`);
      }
    }
    expect(seen).toBeGreaterThan(200);
    expect(missing).toEqual([]);
  });

  it('zh and en have the same keys', () => {
    const zh = leaves(bundle('zh-CN'));
    const en = leaves(bundle('en-US'));
    expect(zh.length).toBeGreaterThan(1500);
    expect(zh.filter((k) => !en.includes(k))).toEqual([]);
    expect(en.filter((k) => !zh.includes(k))).toEqual([]);
  });

  it('every area file is in the keys type', () => {
    expect(areaFiles.length).toBeGreaterThan(40);
    expect(areaFiles.filter((file) => !keysSource.includes(`from '${file.replace(/\.ts$/, '')}'`))).toEqual([]);
  });

  it('the words built from the contract have its values as keys, as their type says', () => {
    const words = (bundle('zh-CN').earlyWarning as Tree).case as Record<string, Tree>;
    expect(Object.keys(words.levels).sort()).toEqual([...warningLevel.options].sort());
    expect(Object.keys(words.kinds).sort()).toEqual([...warningKind.options].sort());
    expect(Object.keys(words.states).sort()).toEqual([...caseState.options].sort());
  });

  it('one common area; domain areas hold resources', () => {
    const zh = i18n.getResourceBundle('zh-CN', 'translation') as Record<string, Record<string, unknown>>;
    for (const area of ['shell', 'authority', 'organization', 'evaluating', 'period']) expect(zh[area]).not.toHaveProperty('common');
    expect(Object.keys(zh.authority).sort()).toEqual(['audit', 'menu', 'role']);
    expect(zh.common.save).toBe('保存');
    expect(zh.common.ok).toBe('确定');
    expect(zh.common.enabled).toBe('启用');
  });
});

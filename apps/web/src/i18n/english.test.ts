/**
 * The console's English reads as English: no full-width brackets, colons, commas or other CJK
 * punctuation in en-US messages (a "Reports（0）" slipped through), and every message that puts
 * a {{count}} before a noun has its singular and plural forms (no "1 persons").
 */
import { describe, expect, it } from 'vitest';
import i18n from './index';
import './console';

type Tree = { [key: string]: string | Tree };
function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : leaves(v, `${prefix}${k}.`)));
}

const sources = import.meta.glob<string>(['../**/*.tsx', '../**/*.ts', '!../**/*.test.ts', '!../**/*.test.tsx', '!./areas/**', '!../respondent/messages/**'], {
  eager: true,
  query: '?raw',
  import: 'default',
});

const en = () => leaves(i18n.getResourceBundle('en-US', 'translation') as Tree);

describe('English messages', () => {
  it('use no full-width punctuation', () => {
    const wide = /[（）：，；。、！？【】「」《》]/;
    expect(en().filter(([, v]) => wide.test(v)).map(([k, v]) => `${k}: ${v}`)).toEqual([]);
  });

  it('count nouns with plural forms (_one and _other)', () => {
    const all = new Map(en());
    // A count before a plural noun ("{{count}} persons", "{{count}} selected people", "user(s)")
    // needs its singular; "{{count}} unread" or "{{count}} removed" read right for any count.
    const noun = /\{\{count\}\}\s+(?:[A-Za-z]+\s+)?(?:[A-Za-z]+s|people|[A-Za-z]+\(s\))\b/;
    const counted = [...all].filter(([k, v]) => (noun.test(v) || /\(s\)/.test(v)) && !/_(one|other|zero)$/.test(k));
    expect(counted.filter(([k]) => !all.has(`${k}_one`)).map(([k, v]) => `${k}: ${v}`)).toEqual([]);
    expect(counted.filter(([, v]) => /\(s\)/.test(v)).map(([k, v]) => `${k}: ${v}`)).toEqual([]);
    for (const [k, v] of counted) expect(all.get(`${k}_one`), k).not.toBe(v);
  });

  it('counts as English: "1 person", "2 persons"', () => {
    const t = i18n.getFixedT('en-US');
    expect(t('archives.person.imported', { count: 1 })).toBe('1 person imported');
    expect(t('archives.person.imported', { count: 2 })).toBe('2 persons imported');
    expect(t('empower.assess.printHint', { count: 1 })).toMatch(/^1 slip;/);
    expect(i18n.getFixedT('zh-CN')('archives.person.imported', { count: 1 })).not.toMatch(/[A-Za-z]/);
  });

  it('the console writes no full-width brackets into its own text (they stay in the Chinese messages)', () => {
    const found: string[] = [];
    for (const [file, text] of Object.entries(sources))
      text.split('\n').forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, '');
        if (/^\s*(\*|\/\*)/.test(line)) return;
        if (/[`'"][^`'"]*[（）][^`'"]*[`'"]/.test(code) || /\}[（）]|[（）]\$\{/.test(code)) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    expect(found).toEqual([]);
  });
});

/**
 * Every literal message key in the console's source exists in both languages, and the common
 * area is the only one with shared words (no `<area>.common` block comes back).
 */
import { describe, expect, it } from 'vitest';
import i18n from './index';
import './console';

const sources = import.meta.glob<string>(['../**/*.ts', '../**/*.tsx', '!../**/*.test.ts', '!../**/*.test.tsx', '!./areas/**'], {
  eager: true,
  query: '?raw',
  import: 'default',
});
const AREAS = ['common', 'shell', 'authority', 'organization', 'evaluating', 'period'];

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

  it('one common area; domain areas hold resources', () => {
    const zh = i18n.getResourceBundle('zh-CN', 'translation') as Record<string, Record<string, unknown>>;
    for (const area of ['shell', 'authority', 'organization', 'evaluating', 'period']) expect(zh[area]).not.toHaveProperty('common');
    expect(Object.keys(zh.authority).sort()).toEqual(['menu', 'role']);
    expect(zh.common.save).toBe('保存');
    expect(zh.common.ok).toBe('确定');
    expect(zh.common.enabled).toBe('启用');
  });
});

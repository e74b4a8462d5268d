import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { catalogue, actionNames, actionPath } from './catalogue.js';
import { menuTable, allMenuCodes, childPath, type MenuNode } from './menus.js';
import { ErrorCode } from './errors.js';
import { OrderStatus, Gender, MentalState, FormType, InputType, Phq9Level } from './enums.js';
import { renderApiDoc } from './api-doc.js';
import { renderActionTable } from './action-table-render.js';
import { actionTable } from './action-table.js';

describe('the action catalogue', () => {
  it('names every action in the as.m.* style of SPEC §7 (as.c.* for the respondent channel) and maps it to its wire path', () => {
    for (const name of actionNames) expect(name).toMatch(/^as\.[mc]\.[A-Za-z0-9.]+$/);
    // The respondent channel is exactly the as.c.* actions: only those take a respondent token.
    for (const name of actionNames) {
      const access = catalogue[name].access;
      if (name.startsWith('as.c.')) expect(access === 'respondent' || access === 'public', name).toBe(true);
      else expect(access, name).not.toBe('respondent');
    }
    expect(actionPath('as.m.user.login')).toBe('/api/as.m.user.login/1.0.0/action');
  });

  it('defines each action name in one domain file only (a second definition would silently replace the first)', async () => {
    const dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'actions');
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')))
      for (const group of Object.values((await import(`./actions/${file.replace(/\.ts$/, '.js')}`)) as Record<string, unknown>)) {
        if (!group || typeof group !== 'object' || !Object.keys(group).every((k) => k.startsWith('as.'))) continue;
        for (const name of Object.keys(group)) {
          if (seen.has(name) && seen.get(name) !== file) twice.push(`${name} (${seen.get(name)}, ${file})`);
          seen.set(name, file);
        }
      }
    expect(twice).toEqual([]);
    expect([...seen.keys()].sort()).toEqual([...actionNames].sort());
  });

  it('rejects unknown fields in every input schema', () => {
    for (const name of actionNames) {
      const input = catalogue[name].input as z.ZodType;
      const res = input.safeParse({ __unknown__: 1 });
      expect(res.success, name).toBe(false);
    }
  });

  it('caps every page size', () => {
    for (const name of actionNames) {
      const input = catalogue[name].input as z.ZodObject;
      if (!(input instanceof z.ZodObject) || !('pageSize' in input.shape)) continue;
      expect((input.shape.pageSize as z.ZodType).safeParse(100_000).success, name).toBe(false);
    }
  });

  it('keeps docs/api.md in step with the catalogue (npm run docs:api)', () => {
    const file = path.resolve(import.meta.dirname, '../../../docs/api.md');
    expect(fs.readFileSync(file, 'utf8')).toBe(renderApiDoc());
  });

  it('keeps the zod-free action table in step with the catalogue (npm run gen:actions)', () => {
    const file = path.resolve(import.meta.dirname, 'action-table.ts');
    expect(fs.readFileSync(file, 'utf8'), 'run npm run gen:actions').toBe(renderActionTable());
    expect(actionTable['as.m.system.role.insertRole'].access).toEqual(catalogue['as.m.system.role.insertRole'].access);
    expect(actionTable['as.m.system.role.selectRoleList'].paged).toBe(true);
    expect(actionTable['as.m.system.dept.selectDeptList'].paged).toBeUndefined();
  });
});

describe('the menu table', () => {
  const walk = (nodes: MenuNode[], out: MenuNode[] = []) => (nodes.forEach((n) => (out.push(n), n.children && walk(n.children, out))), out);

  it('holds every route of SPEC §2 with its code', () => {
    const paths = menuTable.map((m) => m.path);
    expect(paths).toEqual([
      '/Datastatistics',
      '/statistics',
      '/statisticsN',
      '/empower',
      '/task',
      '/echarts/web',
      '/earlyWarning',
      '/archives',
      '/evaluating',
      '/registration',
      '/Service',
      '/authority',
      '/organization',
      '/operations',
      '/period/periodManagement',
    ]);
    const byName = Object.fromEntries(walk(menuTable).map((n) => [n.name, n.code]));
    expect(byName).toMatchObject({
      roleAdministration: '000311',
      earlyWarningC: '00031',
      dept: '000312',
      user: '000313',
      earlyWarningLevel: '00046',
      archives_gl_yl: '000000004',
      maternity: '0000000011',
    });
    expect(menuTable.find((m) => m.path === '/empower')?.alwaysShow).toBe(true);
  });

  it('lands FW01 and JYJ on existing child routes', () => {
    const full = menuTable.flatMap((m) => (m.children ?? []).map((c) => childPath(m, c)));
    expect(full).toContain('/earlyWarning/earlyWarning');
    expect(full).toContain('/statistics/statistics');
  });

  it('every title exists in both languages and codes are 5 to 10 digits', () => {
    for (const n of walk(menuTable)) {
      expect(n.zh.length, n.name).toBeGreaterThan(0);
      expect(n.en.length, n.name).toBeGreaterThan(0);
    }
    for (const c of allMenuCodes()) expect(c).toMatch(/^[0-9]{5,10}$/);
  });
});

describe('enumerations and error codes of SPEC §3 and §8', () => {
  it('match the spec', () => {
    expect(OrderStatus.map((o) => o.value)).toEqual([1, 2, 3, 4, 5, 10, 11]);
    expect(Gender.map((g) => g.value)).toEqual(['01', '02']);
    expect(MentalState.map((m) => m.value)).toEqual([0, 1, 2, 3, 4]);
    expect(FormType.map((f) => f.value)).toEqual(['01', '02', '03', '04']);
    expect(InputType).toHaveLength(9);
    expect(Phq9Level.map((p) => p.en)).toEqual(['None', 'Mild', 'Moderate', 'Moderately severe', 'Severe']);
    expect(ErrorCode.ok).toBe(0);
    expect(ErrorCode.identityInvalid).toBe(110000);
    expect(new Set(Object.values(ErrorCode)).size).toBe(Object.values(ErrorCode).length);
  });
});

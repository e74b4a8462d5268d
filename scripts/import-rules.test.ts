/**
 * The layering rules of eslint.config.js (issue 29): each is shown a planted import it must refuse
 * and a neighbour it must let through, so a rule that stops matching fails here, not in review.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

/** The no-restricted-imports messages for `code` as if it stood at `file`. */
async function refusals(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const cases: { rule: string; file: string; refused: string; allowed: string }[] = [
  {
    rule: 'a domain imports another only through its front door',
    file: 'apps/server/src/domains/plans/planted.ts',
    refused: "import { loadDefinition } from '../scales/store.js';",
    allowed: "import { formBriefs } from '../scales/index.js';",
  },
  {
    rule: "a domain reads no other domain's tables",
    file: 'apps/server/src/domains/plans/planted.ts',
    refused: "import { muser } from '../accounts/tables.js';",
    allowed: "import { plan } from './tables.js';",
  },
  {
    rule: "reports reads the report rows through its own view, not assessments' table (a nested folder too)",
    file: 'apps/server/src/domains/reports/written/planted.ts',
    refused: "import { assessment } from '../../assessments/tables.js';",
    allowed: "import { report } from '../tables.js';",
  },
  {
    rule: "a tables file may name another domain's table for a foreign key",
    file: 'apps/server/src/domains/plans/tables.ts',
    refused: "import { muser } from '../accounts/accounts.js';",
    allowed: "import { muser } from '../accounts/tables.js';",
  },
  {
    rule: 'http/ imports no domain',
    file: 'apps/server/src/http/planted.ts',
    refused: "import { authenticate } from '../domains/auth/index.js';",
    allowed: "import { AppError } from './errors.js';",
  },
  {
    rule: 'kit/ imports no domain',
    file: 'apps/server/src/kit/jobs/planted.ts',
    refused: "import { scopeWhere } from '../../domains/auth/index.js';",
    allowed: "import { newId } from '../ids.js';",
  },
  {
    rule: 'db/ imports no domain',
    file: 'apps/server/src/db/planted.ts',
    refused: "import * as schema from '../domains/schema.js';",
    allowed: "import { migrationsFolder } from './database.js';",
  },
  {
    rule: "a page imports no other page's folder",
    file: 'apps/web/src/pages/task/planted.tsx',
    refused: "import { something } from '../echarts/report-data';",
    allowed: "import { reportLink } from '../../features/links';",
  },
  {
    rule: 'the kit imports no page or feature',
    file: 'apps/web/src/components/planted.tsx',
    refused: "import { caseLink } from '../features/links';",
    allowed: "import { call } from '../api';",
  },
  {
    rule: 'the layout imports no page, and of the features only the link module',
    file: 'apps/web/src/layout/planted.tsx',
    refused: "import { pageRegistry } from '../pages/registry';",
    allowed: "import { caseLink } from '../features/links';",
  },
  {
    rule: 'a feature imports no page',
    file: 'apps/web/src/features/reports/planted.tsx',
    refused: "import ReportList from '../../pages/empower/ReportList';",
    allowed: "import { ListView } from '../../components/list';",
  },
  {
    rule: "a test file imports no other test file (the importer would register that file's tests again, or not, by the order files reach a worker)",
    file: 'apps/server/src/domains/reports/document/planted.test.ts',
    refused: "import { sampleModel } from './template.test.js';",
    allowed: "import { sampleModel } from './test-model.js';",
  },
  {
    rule: 'a console test imports no other test file either',
    file: 'apps/web/src/features/reports/planted.test.tsx',
    refused: "import { rows } from './give-access.test';",
    allowed: "import { canCall } from '../../components/access';",
  },
];

describe('the import rules of eslint.config.js', () => {
  for (const c of cases) {
    it(c.rule, { timeout: 60_000 }, async () => {
      expect(await refusals(c.file, `${c.refused}\nexport const x = 1;\n`), c.refused).toHaveLength(1);
      expect(await refusals(c.file, `${c.allowed}\nexport const x = 1;\n`), c.allowed).toEqual([]);
    });
  }
});

/** Every TypeScript file below `dir`. */
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : [],
  );

describe('the import rules hold without exceptions', () => {
  it('no source file switches the layering rule off for a line or a file', () => {
    const off = /eslint-disable[^\n]*no-restricted-imports/;
    const files = [...sources(path.join(root, 'apps/server/src')), ...sources(path.join(root, 'apps/web/src'))];
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((f) => off.test(readFileSync(f, 'utf8'))).map((f) => path.relative(root, f))).toEqual([]);
  });
});

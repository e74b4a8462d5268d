import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { readdirSync } from 'node:fs';
import { URL } from 'node:url';

// The server's business domains: a folder each under apps/server/src/domains.
const domains = readdirSync(new URL('./apps/server/src/domains', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * Issue 29: a domain talks to another only through its front door (`../<b>/index.js`, from a
 * nested folder `../../<b>/index.js`); a tables file may also name another domain's table for a
 * foreign key (`../<b>/tables.js`). Anything deeper is refused.
 */
function domainBoundary(own, allowed) {
  const others = domains.filter((name) => name !== own).join('|');
  return [
    'error',
    {
      patterns: [
        {
          regex: `^(\\.\\./)+(${others})/(?!(${allowed})$)`,
          message: "Import another domain only through its index.ts (its front door): export what you need there.",
        },
      ],
    },
  ];
}

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'apps/server/drizzle/**', 'data/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  // Issue 17: the catalogue holds every domain's zod schemas; a console module importing it
  // puts them all into its chunk. Access comes from actionTable, schemas from the domain's table.
  // Issue 29 item 5: the console's layers. Pages import the kit, features, lib, api, auth, i18n
  // and layout hooks, never another page's folder; features never import pages; the kit
  // (components/) imports neither; the layout imports no page and, of the features, only the link
  // module features/links.ts (the notification bell links to a case). The page registry reaches
  // the layout's PageHost from App.tsx, the composition root. Tests are left out: they import
  // what they check. Each block repeats the whole rule, as a later block replaces its options.
  ...consoleImportRules(),
  {
    // Issue 29 item 2: infrastructure stays below the domains. The action route, the handlers' kit,
    // the database layer and the settings import nothing from domains/; what they need of a domain
    // (authentication, the audit writer) the app hands them (app.ts, the composition root).
    files: ['apps/server/src/{http,kit,db}/**/*.ts', 'apps/server/src/config.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)domains(/|$)',
              message: 'http/, kit/ and db/ import nothing from domains/: take it as a dependency the app passes in (app.ts).',
            },
          ],
        },
      ],
    },
  },
  ...domains.flatMap((own) => [
    {
      files: [`apps/server/src/domains/${own}/**/*.ts`],
      ignores: ['**/*.test.ts'],
      rules: { 'no-restricted-imports': domainBoundary(own, 'index\\.js') },
    },
    {
      files: [`apps/server/src/domains/${own}/**/*tables.ts`],
      rules: { 'no-restricted-imports': domainBoundary(own, 'index\\.js|tables\\.js') },
    },
  ]),
  {
    // A test file importing another registers that file's tests again inside itself when the other
    // is not yet loaded in its worker (the server's files share their workers' modules): the count
    // of tests then moved from run to run. What tests share lives in a module of its own.
    files: ['**/*.test.{ts,tsx}', 'e2e/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '\\.(test|spec)(\\.[jt]sx?)?$', message: 'Import no test file: move what tests share into a module of its own (a test-*.ts beside them).' }] },
      ],
    },
  },
);

/** The `no-restricted-imports` blocks of apps/web/src: the catalogue everywhere, plus each layer's patterns. */
function consoleImportRules() {
  const catalogue = {
    name: '@xinli/contract',
    importNames: ['catalogue', 'actionNames', 'isActionName'],
    message: "Use actionTable for access, and the page domain's action table (systemActions[...]) for schemas.",
  };
  const src = 'apps/web/src';
  const block = (files, patterns = []) => ({
    files,
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { paths: [catalogue], patterns }] },
  });
  const intoPages = {
    regex: '^(\\.\\./)+pages(/|$)',
    message: 'Only the composition root (main.tsx, App.tsx, the page registry) imports pages: move what is shared into features/.',
  };
  const intoFeatures = { regex: '^(\\.\\./)+features(/|$)', message: 'The kit imports no feature: features build on the kit.' };
  const intoFeaturesButLinks = {
    regex: '^(\\.\\./)+features(/(?!links$)|$)',
    message: 'The layout imports no feature but the link module, features/links.ts.',
  };
  /** From a file `depth` folders below pages/: a relative path climbing to pages/ and into another page's folder. */
  const anotherPage = (depth) => ({
    regex: `^(\\.\\./){${depth}}(?!\\.\\./)`,
    message: "A page imports no other page's folder: move what both use into features/ (links into features/links.ts).",
  });
  return [
    block([`${src}/**/*.{ts,tsx}`]),
    block([`${src}/components/**/*.{ts,tsx}`], [intoPages, intoFeatures]),
    block([`${src}/layout/**/*.{ts,tsx}`], [intoPages, intoFeaturesButLinks]),
    block([`${src}/features/**/*.{ts,tsx}`], [intoPages]),
    ...[1, 2, 3].map((depth) => block([`${src}/pages/*/${'*/'.repeat(depth - 1)}*.{ts,tsx}`], [intoPages, anotherPage(depth)])),
  ];
}

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
  {
    // Issue 17: the catalogue holds every domain's zod schemas; a console module importing it
    // puts them all into its chunk. Access comes from actionTable, schemas from the domain's table.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@xinli/contract',
              importNames: ['catalogue', 'actionNames', 'isActionName'],
              message: "Use actionTable for access, and the page domain's action table (systemActions[...]) for schemas.",
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
);

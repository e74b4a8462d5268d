/**
 * The console runs under a Content-Security-Policy without 'unsafe-eval'. zod 4 probes
 * `new Function` the first time it parses an object schema (its JIT parser), which the policy
 * reports as a violation. zod takes its settings from `globalThis.__zod_globalConfig` when that
 * already exists, so this module — imported FIRST by each entry (main.tsx, respondent/main.tsx),
 * before any chunk holding zod is evaluated — turns the JIT off without loading zod itself (the
 * sign-in page stays free of it). Setting it in App.tsx was too late once a shared chunk that
 * App imports parsed a schema while it loaded.
 */
const g = globalThis as { __zod_globalConfig?: Record<string, unknown> };
g.__zod_globalConfig = { ...g.__zod_globalConfig, jitless: true };

export {};

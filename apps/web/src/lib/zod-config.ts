/**
 * The console runs under a Content-Security-Policy without 'unsafe-eval'. zod 4 probes
 * `new Function` when it builds an object schema (its JIT parser), which the policy reports as a
 * violation; the console parses little, so it turns the JIT off before any schema is built
 * (this module is imported first by App.tsx, the console, before any page chunk loads the catalogue;
 * the sign-in page in main.tsx builds no schema).
 */
import { config } from 'zod/v4/core';

config({ jitless: true });

import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './apps/server/src/domains/schema.ts',
  out: './apps/server/drizzle',
});

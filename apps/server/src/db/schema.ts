/** Every table, gathered for Drizzle; each domain owns the tables in its own folder. */
export * from '../domains/accounts/tables.js';
export * from '../domains/system/tables.js';
export * from '../domains/auth/tables.js';
export * from '../domains/audit/tables.js';

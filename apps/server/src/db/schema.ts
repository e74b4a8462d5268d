/** Every table, gathered for Drizzle; each domain owns the tables in its own folder. */
export * from '../domains/accounts/tables.js';
export * from '../domains/system/tables.js';
export * from '../domains/auth/tables.js';
export * from '../domains/audit/tables.js';
export * from '../domains/apps/tables.js';
export * from '../domains/scales/tables.js';
export * from '../domains/assessments/tables.js';
export * from '../domains/plans/tables.js';
export * from '../domains/persons/tables.js';
export * from '../domains/reports/tables.js';
export * from '../domains/consultation/tables.js';
export * from '../domains/warnings/tables.js';
export * from '../kit/jobs/tables.js';
export * from '../domains/reports/written/tables.js';
export * from '../domains/tasks/tables.js';
export * from '../domains/tasks/group-report/tables.js';
export * from '../domains/files/tables.js';

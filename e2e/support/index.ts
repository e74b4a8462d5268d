export * from './auth';
export * from './respondent';

export * from './auth';
export * from './respondent';
export * from './checks';
export * from './select';
export * from './dialogs';
export * from './language';
export * from './menu';
export * from './shots';

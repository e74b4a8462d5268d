export * from './errors.js';
export * from './enums.js';
export * from './apps.js';
export * from './menus.js';
export * from './catalogue-kit.js';
export * from './catalogue.js';
export * from './actions/auth.js';

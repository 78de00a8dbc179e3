export * from './check.js';
export * from './approval.js';
export * from './table.js';

export * from './gate.js';
export * from './run.js';
export * from './schedule.js';
export * from './selectors.js';
export * from './happens-before.js';
export * from './exhaustive.js';

export * from './cell.js';
export * from './world-run.js';
export * from './replay.js';
export * from './way.js';

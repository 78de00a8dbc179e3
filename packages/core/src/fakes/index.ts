export * from './backend.js';
export * from './model.js';
export * from './connections.js';
export * from './proposals.js';

// The stores a world runs on: Mastra's InMemoryStore; a LibSQLStore on a file, under one Mastra (one process); and
// the same file under two Mastra instances, one per process, the second serving turn t2 (two processes).
import { join } from 'node:path';
import type { MastraLib } from './lib.js';

export const STORES = ['memory', 'libsql', 'libsql-shared'] as const;
export type StoreKind = (typeof STORES)[number];

export function storeKind(kind: string): StoreKind {
  if ((STORES as readonly string[]).includes(kind)) return kind as StoreKind;
  throw new Error(`unknown store '${kind}'; the Mastra adapter has ${STORES.join(', ')}`);
}

/** How many processes (Mastra instances) the store kind runs, and which serves a turn. */
export const processes = (kind: StoreKind) => (kind === 'libsql-shared' ? 2 : 1);
export const processOf = (kind: StoreKind, turn: string) => (kind === 'libsql-shared' && turn === 't2' ? 1 : 0);

/** A new storage object of the kind: an empty InMemoryStore, or a client of the world's LibSQL file. */
export function openStorage(lib: MastraLib, kind: StoreKind, scratchDir: () => string): unknown {
  if (kind === 'memory') return new lib.storage['InMemoryStore']();
  return new lib.libsql['LibSQLStore']({ id: 'libsql', url: `file:${join(scratchDir(), 'mastra.db')}` });
}

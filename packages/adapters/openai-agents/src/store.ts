// The app's store for the serialized RunState (`state.toString()` saved, `RunState.fromString` on load), one
// conversation's state under one key, in memory or in SQLite: the core's gated app record, which reports after each
// read and write what the serialized state says about the approvals.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  GatedAppRecord,
  memoryTextBacking,
  sqliteTextBacking,
  type AppRecordTrace,
} from '@approval-conformance/core/kit';
import { recordStates } from './record.js';

export const CONVERSATION = 'conversation-1';

export type StateStore = GatedAppRecord<string>;

export function openStateStore(kind: string, scratchDir: () => string, trace: AppRecordTrace): StateStore {
  if (kind !== 'memory' && kind !== 'sqlite') throw new Error(`unknown store '${kind}'; the OpenAI Agents adapter has memory, sqlite`);
  const open = () =>
    kind === 'sqlite'
      ? sqliteTextBacking(new Database(join(scratchDir(), 'states.sqlite')), { table: 'run_states', column: 'state', id: CONVERSATION })
      : memoryTextBacking();
  const spec = { name: 'state', id: CONVERSATION, encode: (text: string) => text, decode: (text: string) => text, states: recordStates };
  return new GatedAppRecord(open, spec, trace);
}

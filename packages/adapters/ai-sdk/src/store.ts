// The chat store of the docs' persistence pattern (load the messages, append, run, save on finish), in memory or in
// SQLite: the core's gated app record, which reports after each read and write what the transcript says about the
// approvals.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  GatedAppRecord,
  memoryTextBacking,
  sqliteTextBacking,
  type AppRecordTrace,
} from '@approval-conformance/core/kit';
import type { RecordState } from '@approval-conformance/core/contract';
import type { Message } from './transcript.js';

export const CHAT = 'chat-1';

export type ChatStore<T = Message[]> = GatedAppRecord<T>;

/** The chat store (ModelMessages, or the UI wirings' UIMessages); `states` says what it says about each approval. */
export function openChatStore<T = Message[]>(
  kind: string,
  scratchDir: () => string,
  states: (messages: NoInfer<T> | undefined) => Map<string, RecordState>,
  trace: AppRecordTrace,
): ChatStore<T> {
  if (kind !== 'memory' && kind !== 'sqlite') throw new Error(`unknown store '${kind}'; the AI SDK adapter has memory, sqlite`);
  const open = () =>
    kind === 'sqlite'
      ? sqliteTextBacking(new Database(join(scratchDir(), 'chats.sqlite')), { table: 'chats', column: 'messages', id: CHAT })
      : memoryTextBacking();
  const spec = {
    name: 'chat',
    id: CHAT,
    encode: (messages: T) => JSON.stringify(messages),
    decode: (text: string) => JSON.parse(text) as T,
    states,
  };
  return new GatedAppRecord<T>(open, spec, trace);
}

// An application's own store of its one record, gated and reported, for frameworks whose approval state the app keeps
// (a chat transcript, a serialized run state).
export { GatedAppRecord, type AppRecordSnapshot, type AppRecordSpec, type AppRecordTrace } from './gated-app-record.js';
export { memoryTextBacking, sqliteTextBacking, type SqliteDatabase, type TextBacking } from './text-backing.js';

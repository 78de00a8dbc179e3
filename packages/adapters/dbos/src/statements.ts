// What a statement of DBOS's system database touches, read from the statement itself: its verb, its tables, and the
// workflows its parameters name. The access a gate declares and the access the wrapper reports are both computed from
// the statement about to run (never copied from a declaration), so the explorer's check of declarations sees what
// the statement really did.
import type { Access } from '@approval-conformance/core/contract';

export type Verb = 'select' | 'insert' | 'update' | 'delete' | 'begin' | 'commit' | 'rollback' | 'listen' | 'notify' | 'other';

export interface Statement {
  readonly text: string;
  readonly params: readonly unknown[];
  readonly verb: Verb;
  /** The tables it names (`notifications`, `workflow_status`, ...), schema left out. */
  readonly tables: readonly string[];
  /** Whether it changes rows (or sends a notification). */
  readonly writes: boolean;
}

const VERBS: Readonly<Record<string, Verb>> = {
  select: 'select',
  with: 'select',
  insert: 'insert',
  update: 'update',
  delete: 'delete',
  begin: 'begin',
  start: 'begin',
  commit: 'commit',
  end: 'commit',
  rollback: 'rollback',
  listen: 'listen',
  unlisten: 'listen',
  notify: 'notify',
};

/** A table after FROM, INTO, UPDATE or JOIN, schema-qualified or not; not a function (`FROM now()`), nor `UPDATE SET`. */
const TABLE = /\b(?:from|into|update|join)\s+(?:"[^"]+"\.|[a-z_][a-z0-9_]*\.)?"?([a-z_][a-z0-9_]*)\b"?(?!\()/gi;
const NOT_TABLES = new Set(['set', 'select', 'unnest']);

export function parse(text: string, params: readonly unknown[] = []): Statement {
  const first = /^\s*([a-z]+)/i.exec(text)?.[1]?.toLowerCase() ?? '';
  const verb = VERBS[first] ?? 'other';
  const tables = [...new Set([...text.matchAll(TABLE)].map((m) => m[1]!.toLowerCase()))].filter((t) => !NOT_TABLES.has(t));
  // A WITH ... may write; SELECT pg_notify(...) sends notifications; SELECT ... FOR UPDATE locks rows for a write.
  const writes =
    verb === 'insert' || verb === 'update' || verb === 'delete' || verb === 'notify' || /\bpg_notify\s*\(/i.test(text) || /\bfor\s+update\b/i.test(text) || (verb === 'select' && /\b(insert|update|delete)\b/i.test(text) && first === 'with');
  return { text, params, verb, tables, writes };
}

/** The workflows a statement's parameters name: a workflow's id, or a `workflowID::topic` payload. */
export function workflowsOf(statement: Statement, known: ReadonlySet<string>): string[] {
  const named = new Set<string>();
  const visit = (value: unknown) => {
    if (typeof value === 'string') {
      if (known.has(value)) named.add(value);
      const head = value.split('::', 1)[0]!;
      if (head !== value && known.has(head)) named.add(head);
    } else if (Array.isArray(value)) value.forEach(visit);
  };
  statement.params.forEach(visit);
  return [...named];
}

/** The part of a workflow's state a table holds: its messages, its events, or its run (status, steps, input, output). */
export function partOf(table: string): 'messages' | 'events' | 'run' {
  if (table === 'notifications') return 'messages';
  if (table === 'workflow_events' || table === 'workflow_events_history' || table === 'streams') return 'events';
  return 'run';
}

/**
 * What a statement touches of DBOS's state: each part (partOf) of each workflow it names, or, for one that names none
 * of them (a scan of every pending workflow, a queue's rows), of every workflow there is. The parts are application
 * state (`app:<wf>/<part>`), each exactly its rows: the approval's record, where DBOS's state is the record, is
 * declared beside them by the world, at the statements that are its evidence. BEGIN, ROLLBACK and LISTEN touch
 * nothing; a COMMIT makes visible what its transaction wrote (the world passes those).
 */
export function accessesOf(statement: Statement, known: ReadonlySet<string>): Access[] {
  if (statement.verb === 'begin' || statement.verb === 'rollback' || statement.verb === 'listen' || statement.verb === 'commit') return [];
  const mode = statement.writes ? 'write' : 'read';
  const named = workflowsOf(statement, known);
  const workflows = (named.length > 0 ? named : [...known]).sort();
  const parts = [...new Set(statement.tables.map(partOf))].sort();
  // pg_notify names no table: it wakes what waits for the events or messages of the workflows it names.
  if (parts.length === 0 && statement.writes) parts.push('events', 'messages');
  // A workflow's events are rows by key (`workflow_events (workflow_uuid, key)`): a statement on one names it.
  const eventKey = eventKeyOf(statement);
  const keyOf = (wf: string, part: string) => (part === 'events' && eventKey !== undefined ? `app:${wf}/events/${eventKey}` : `app:${wf}/${part}`);
  return workflows.flatMap((wf) => parts.map((part): Access => ({ key: keyOf(wf, part), mode, exact: true })));
}

/**
 * The event a statement on one workflow's events reads or writes, where it names one: getEvent's read and setEvent's
 * insert name it second (`workflow_uuid=$1 AND key=$2`, `VALUES ($1, $2, ...)`), the history's insert third.
 */
function eventKeyOf(statement: Statement): string | undefined {
  if (statement.tables.length !== 1) return undefined;
  const [table] = statement.tables;
  const at = table === 'workflow_events' ? 1 : table === 'workflow_events_history' ? 2 : undefined;
  if (at === undefined) return undefined;
  const value = statement.params[at];
  return typeof value === 'string' ? value : undefined;
}

/** A short label for a gate: the verb, the tables, the workflows. */
export function labelOf(statement: Statement, workflows: readonly string[]): string {
  const tables = statement.tables.length > 0 ? ` ${statement.tables.join(',')}` : '';
  return `sql.${statement.verb}${tables}(${workflows.join(',') || '*'})`;
}

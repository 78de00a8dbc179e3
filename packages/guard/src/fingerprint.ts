// What an approval binds: the tool, its arguments and its targets, as one short string. Arguments are put in a
// canonical form first (object keys sorted, no whitespace), so the same action always has the same fingerprint
// whatever order a transcript or a serializer wrote its keys in, and any change to what would run changes it.
//
// The canonical form is the JSON the record is stored as (SQLite, PostgreSQL), so an action fingerprints the same
// before and after a trip through the store. Anything JSON would store lossily is refused rather than guessed at: a
// Map, a Set or a class instance has no own enumerable data for JSON to keep, so every Map would fingerprint alike
// and an approval for one would pass for any other.
import { createHash } from 'node:crypto';

export interface GuardedAction {
  /** The tool (or operation) that would run: `transfer`. */
  readonly tool: string;
  /** Its arguments, as JSON-like data. */
  readonly args: unknown;
  /** What it acts on (`acct-1`), in any order. */
  readonly targets?: readonly string[];
}

/**
 * JSON with object keys sorted at every depth; undefined members left out, and `toJSON` (a Date's) applied, as
 * JSON.stringify does. Throws a TypeError for what JSON cannot hold faithfully: bigint, NaN and ±Infinity, functions,
 * symbols, cycles, and objects other than plain objects and arrays (after `toJSON`).
 */
export function canonicalJson(value: unknown): string {
  return canonical(value, new Set());
}

function canonical(value: unknown, ancestors: Set<object>): string {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: (key: string) => unknown }).toJSON('');
  }
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError(`cannot fingerprint the number ${value}`);
    if (typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol') {
      throw new TypeError(`cannot fingerprint a ${typeof value}: give the action as JSON-like data`);
    }
    return JSON.stringify(value) ?? 'null';
  }
  if (ancestors.has(value)) throw new TypeError('cannot fingerprint a cyclic structure: give the action as JSON-like data');
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      // An index loop, not map(): map skips the holes of a sparse array, which JSON writes as null.
      const items: string[] = [];
      for (let i = 0; i < value.length; i++) items.push(value[i] === undefined ? 'null' : canonical(value[i], ancestors));
      return `[${items.join(',')}]`;
    }
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      const kind = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
      throw new TypeError(`cannot fingerprint a ${kind}: JSON would not keep its contents; give the action as plain objects and arrays`);
    }
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v, ancestors)}`).join(',')}}`;
  } finally {
    ancestors.delete(value);
  }
}

/** `sha256:` and the hex digest of the action's canonical form (targets sorted). */
export function fingerprint(action: GuardedAction): string {
  const canonical = canonicalJson({ tool: action.tool, args: action.args ?? null, targets: [...(action.targets ?? [])].sort() });
  return `sha256:${createHash('sha256').update(canonical).digest('hex')}`;
}

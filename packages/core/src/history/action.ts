// Actions are compared and printed the same way everywhere: parameters as canonical JSON (keys sorted at every
// depth), so `{ amount, memo }` and `{ memo, amount }` are one action, and targets in order, since
// `transfer from a to b` is not `transfer from b to a`.
import type { Action } from './events.js';

/** One part of an action that can differ between what was approved and what ran. */
export type ActionPart = 'operation' | 'targets' | 'params';

/** JSON with object keys sorted at every depth; `undefined` is dropped or nulled as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return canonicalJson((value as { toJSON: () => unknown }).toJSON());
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => (isJsonless(item) ? 'null' : canonicalJson(item))).join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => !isJsonless(item))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

// Values JSON has no spelling for: dropped from objects, null in arrays.
function isJsonless(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** The parts in which two actions differ, in the order operation, targets, params; empty when they are equal. */
export function actionDifferences(a: Action, b: Action): ActionPart[] {
  const parts: ActionPart[] = [];
  if (a.operation !== b.operation) parts.push('operation');
  if (a.targets.length !== b.targets.length || a.targets.some((target, i) => target !== b.targets[i])) {
    parts.push('targets');
  }
  if (canonicalJson(a.params) !== canonicalJson(b.params)) parts.push('params');
  return parts;
}

export function actionsEqual(a: Action, b: Action): boolean {
  return actionDifferences(a, b).length === 0;
}

/** `transfer(amount=100, memo="rent") on acct-1, acct-2`: parameters sorted by name, values as JSON. */
export function formatAction(action: Action): string {
  const params = Object.entries(action.params)
    .filter(([, value]) => !isJsonless(value))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${canonicalJson(value)}`)
    .join(', ');
  const targets = action.targets.length > 0 ? ` on ${action.targets.join(', ')}` : '';
  return `${action.operation}(${params})${targets}`;
}

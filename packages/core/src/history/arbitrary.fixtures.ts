// Random small histories for property tests: up to three turns, one or two approvals, a handful of actions and
// worlds, record versions that only go up. Two kinds are mixed:
//   - protocol runs: the approval is set up (proposed, recorded, shown, approved — each part sometimes missing or
//     wrong), then two or three turns each play a resume script in one of the essay's designs (spend after / before /
//     by compare-and-set, snapshot or fresh check), interleaved at random, with crashes, retries and stray events;
//   - free runs: events drawn independently, for the shapes no protocol would produce.
// Events are drawn as templates; a fold then fills in what the record really held (the version a read sees, the state
// a write replaced) and stops a scripted turn whose check finds the approval not unspent, as a real turn would.
import fc from 'fast-check';
import type { Action, HistoryEvent, RecordState } from './events.js';

const TURNS = ['t1', 't2', 't3'] as const;
const APPROVALS = ['a1', 'a2'] as const;
const WORLDS = ['w1', 'w2'] as const;

/** The first two are one action with its parameter keys in two orders: equal, and must compare so. */
export const ACTIONS: readonly Action[] = [
  { operation: 'transfer', targets: ['acct-1'], params: { amount: 100, memo: 'rent' } },
  { operation: 'transfer', targets: ['acct-1'], params: { memo: 'rent', amount: 100 } },
  { operation: 'transfer', targets: ['acct-1'], params: { amount: 1000, memo: 'rent' } },
  { operation: 'transfer', targets: ['acct-2', 'acct-1'], params: { amount: 100, memo: 'rent' } },
  { operation: 'delete', targets: ['acct-1'], params: {} },
];
const APPROVED = ACTIONS[0]!;

type Template =
  | Exclude<HistoryEvent, { kind: 'record-read' | 'record-write' }>
  | { readonly kind: 'record-read'; readonly actor: string; readonly approvalId: string }
  | {
      readonly kind: 'record-write';
      readonly actor: string;
      readonly approvalId: string;
      /** 'forward' is the next state a protocol writes: absent → unspent → spent. */
      readonly state: RecordState | 'forward';
      readonly conditional: boolean;
    };

/** A template in a turn's script. `check`: the turn goes on only if the record holds the approval unspent. */
interface Step {
  readonly template: Template;
  readonly check?: boolean;
  readonly scripted?: boolean;
}

const weighted = <T>(common: T, weight: number, others: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(common), weight }, { arbitrary: others, weight: 1 });

const turn = fc.constantFrom(...TURNS);
const approvalId = weighted<string>('a1', 3, fc.constantFrom(...APPROVALS));
// Mostly the approved action, so that approvals and effects often agree.
const action = weighted(APPROVED, 2, fc.constantFrom(...ACTIONS));
const world = weighted<string>('w1', 3, fc.constantFrom(...WORLDS));
const usually = weighted(true, 3, fc.constant(false));

const effect = (actor: fc.Arbitrary<string>, id: fc.Arbitrary<string>, dispatch: fc.Arbitrary<string>) =>
  fc.record({
    kind: fc.constant('effect' as const),
    actor,
    approvalId: id,
    dispatch,
    action,
    world,
    applied: usually,
    requiresApproval: weighted(true, 4, fc.constant(false)),
  });

const disclosure = (actor: fc.Arbitrary<string>, id: fc.Arbitrary<string>) =>
  fc.record({
    kind: fc.constant('disclosure' as const),
    actor,
    approvalId: id,
    says: fc.constantFrom<'happened' | 'happened' | 'not-happened' | 'unknown'>('happened', 'happened', 'not-happened', 'unknown'),
  });

/** Any single event, drawn on its own. */
const stray: fc.Arbitrary<Template> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('proposed' as const), actor: turn, approvalId, action, world }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('record-read' as const), actor: turn, approvalId }), weight: 4 },
  {
    arbitrary: fc.record({
      kind: fc.constant('record-write' as const),
      actor: turn,
      approvalId,
      state: fc.constantFrom<RecordState | 'forward'>('forward', 'forward', 'unspent', 'spent', 'absent'),
      conditional: fc.boolean(),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('delivery' as const),
      actor: turn,
      approvalId,
      connection: fc.constantFrom('c1', 'c2'),
      action,
      live: weighted(true, 4, fc.constant(false)),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('approve' as const),
      actor: fc.constantFrom('user', 'holder'),
      approvalId,
      by: weighted<'human' | 'forged'>('human', 2, fc.constant('forged')),
      action,
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('deny' as const), actor: fc.constant('user'), approvalId, action }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('deny' as const), actor: turn, approvalId, action, expired: fc.constant(true as const) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('tamper' as const), actor: fc.constant('holder'), approvalId, what: fc.constant('edited') }), weight: 1 },
  { arbitrary: effect(turn, approvalId, fc.constantFrom('d1', 'd2', 'd3')), weight: 5 },
  { arbitrary: disclosure(turn, approvalId), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('crash' as const), actor: turn }), weight: 1 },
);

/** How a real run starts (t0 proposes, records, shows, the user approves), with each part sometimes missing or off. */
const setup = (id: string): fc.Arbitrary<Template[]> =>
  fc
    .record({
      recorded: usually,
      shown: weighted<'live' | 'dropped' | 'none'>('live', 4, fc.constantFrom('dropped', 'none')),
      approval: weighted<'human' | 'forged' | 'none'>('human', 4, fc.constantFrom('forged', 'none')),
    })
    .map(({ recorded, shown, approval }) => [
      { kind: 'proposed', actor: 't0', approvalId: id, action: APPROVED, world: 'w1' },
      ...(recorded ? [{ kind: 'record-write', actor: 't0', approvalId: id, state: 'forward', conditional: false } as const] : []),
      ...(shown === 'none'
        ? []
        : [{ kind: 'delivery', actor: 't0', approvalId: id, connection: 'c1', action: APPROVED, live: shown === 'live' } as const]),
      ...(approval === 'none'
        ? []
        : [{ kind: 'approve', actor: approval === 'human' ? 'user' : 'holder', approvalId: id, by: approval, action: APPROVED } as const]),
    ]);

/** One turn resuming a1 in one of the essay's designs, perhaps cut short by a crash, perhaps with a transport retry. */
const script = (actor: string): fc.Arbitrary<Step[]> =>
  fc
    .record({
      mode: fc.constantFrom('after', 'before', 'cas'),
      fresh: fc.boolean(),
      effect: effect(fc.constant(actor), fc.constant('a1'), fc.constant(`d-${actor}`)),
      // A transport retry after a timeout: whether the backend applied it again (null: no retry).
      retry: fc.option(fc.boolean(), { freq: 3 }),
      told: fc.option(disclosure(fc.constant(actor), fc.constant('a1')), { freq: 4 }),
      crashAt: fc.option(fc.nat({ max: 6 }), { freq: 3 }),
    })
    .map(({ mode, fresh, effect, retry, told, crashAt }) => {
      const read: Template = { kind: 'record-read', actor, approvalId: 'a1' };
      const spend = (conditional: boolean): Template => ({ kind: 'record-write', actor, approvalId: 'a1', state: 'forward', conditional });
      const acts: Template[] = retry === null ? [effect] : [effect, { ...effect, applied: retry }];
      const steps: Step[] = [
        { template: read, check: !fresh && mode !== 'cas' },
        ...(fresh && mode !== 'cas' ? [{ template: read, check: true }] : []),
        ...(mode === 'cas' ? [{ template: spend(true), check: true }] : []),
        ...(mode === 'before' ? [{ template: spend(false) }] : []),
        ...acts.map((template) => ({ template })),
        ...(mode === 'after' ? [{ template: spend(false) }] : []),
        ...(told === null ? [] : [{ template: told }]),
      ];
      const kept = crashAt === null ? steps : [...steps.slice(0, crashAt), { template: { kind: 'crash', actor } as const }];
      return kept.map((step) => ({ ...step, scripted: true }));
    });

/** Interleaves sequences, taking the next element of the sequence each pick names (or the next one that has any). */
function interleave<T>(sequences: readonly (readonly T[])[], picks: readonly number[]): T[] {
  const queues = sequences.map((s) => [...s]);
  const out: T[] = [];
  let p = 0;
  while (queues.some((q) => q.length > 0)) {
    const start = (picks[p++ % Math.max(picks.length, 1)] ?? 0) % queues.length;
    for (let k = 0; k < queues.length; k++) {
      const item = queues[(start + k) % queues.length]!.shift();
      if (item !== undefined) {
        out.push(item);
        break;
      }
    }
  }
  return out;
}

const protocolRun: fc.Arbitrary<Step[]> = fc
  .record({
    setupA1: setup('a1'),
    setupA2: fc.option(setup('a2'), { freq: 3 }),
    scripts: fc.constantFrom(['t1', 't2'], ['t1', 't2', 't3']).chain((turns) => fc.tuple(...turns.map(script))),
    noise: fc.array(stray, { maxLength: 3 }),
    picks: fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 30 }),
  })
  .map(({ setupA1, setupA2, scripts, noise, picks }) => [
    ...[...setupA1, ...(setupA2 ?? [])].map((template) => ({ template })),
    ...interleave<Step>([...scripts, noise.map((template) => ({ template }))], picks),
  ]);

const freeRun: fc.Arbitrary<Step[]> = fc
  .tuple(fc.option(setup('a1'), { freq: 4 }), fc.array(stray, { minLength: 1, maxLength: 10, size: 'max' }))
  .map(([start, rest]) => [...(start ?? []), ...rest].map((template) => ({ template })));

/** Fills in versions and prior states (one record, its version bumped by every write) and stops failed checks. */
function realise(steps: readonly Step[]): HistoryEvent[] {
  let version = 0;
  const states = new Map<string, RecordState>();
  const stopped = new Set<string>();
  const out: HistoryEvent[] = [];
  for (const { template: t, check, scripted } of steps) {
    if (scripted === true && stopped.has(t.actor)) continue;
    if (t.kind === 'record-read') {
      const state = states.get(t.approvalId) ?? 'absent';
      out.push({ ...t, version, state });
      if (check === true && state !== 'unspent') stopped.add(t.actor);
    } else if (t.kind === 'record-write') {
      const from = states.get(t.approvalId) ?? 'absent';
      if (check === true && from !== 'unspent') {
        // A compare-and-set that found the approval already spent: it read, wrote nothing, and the turn stops.
        out.push({ kind: 'record-read', actor: t.actor, approvalId: t.approvalId, version, state: from });
        stopped.add(t.actor);
        continue;
      }
      const state = t.state === 'forward' ? (from === 'absent' ? 'unspent' : 'spent') : t.state;
      states.set(t.approvalId, state);
      version += 1;
      const { conditional, ...rest } = t;
      out.push(conditional ? { ...rest, version, from, state, conditional } : { ...rest, version, from, state });
    } else {
      out.push(t);
    }
  }
  return out;
}

export const historyArbitrary: fc.Arbitrary<HistoryEvent[]> = fc.oneof(protocolRun, freeRun).map(realise);

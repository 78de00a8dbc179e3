// The essay's approval model (Approval.tla), action for action. One human approval; several turns may resume it.
// The three switches are the choices a team makes when implementing the spend:
//   spendMode  'after'  check, do the effect, then record the spend     (replay-style resume)
//              'before' check, record the spend, then do the effect     (still a read-then-write)
//              'cas'    compare-and-set the record, then do the effect  (atomic spend)
//   freshView  true: the check re-reads the durable record; false: it uses the snapshot read when the turn started
//   serialize  true: only one turn at a time may be between claiming and finishing
import type { Spec, Step } from './check.js';

export type SpendMode = 'after' | 'before' | 'cas';

export interface Switches {
  readonly spendMode: SpendMode;
  readonly freshView: boolean;
  readonly serialize: boolean;
}

type RecordValue = 'unspent' | 'spent';

/** idle -> ready -> claimed -> [armed] -> [acted] -> done; armed only with 'before', acted only with 'after'. */
type Stage = 'idle' | 'ready' | 'claimed' | 'armed' | 'acted' | 'done';

export interface ApprovalState {
  readonly pc: readonly Stage[];
  /** The one durable approval record. */
  readonly log: RecordValue;
  /** What each turn saw the record as when it started. */
  readonly view: readonly (RecordValue | 'unread')[];
  /** How many times the approved action has run in the world. */
  readonly eff: number;
}

export const MODEL_PROPERTIES = ['at-most-once', 'no-resurrection'] as const;

export function approvalSpec(switches: Switches, turns = 2): Spec<ApprovalState> {
  const { spendMode, freshView, serialize } = switches;
  const name = (t: number) => `t${t + 1}`;
  const set = <T>(xs: readonly T[], t: number, x: T) => xs.map((old, i) => (i === t ? x : old));

  // What a turn sees when it checks: the live record, or the snapshot it started with.
  // A compare-and-set always reads the live record.
  const sees = (s: ApprovalState, t: number) => (freshView || spendMode === 'cas' ? s.log : s.view[t]);

  // Someone is between claiming and finishing (used only when serialize is on).
  const busy = (s: ApprovalState) => s.pc.some((stage) => stage === 'claimed' || stage === 'armed');

  // The turn starts: it reads the record once and remembers what it saw.
  const restore = (s: ApprovalState, t: number): Step<ApprovalState> | undefined =>
    s.pc[t] !== 'idle'
      ? undefined
      : {
          name: `${name(t)} restore (sees ${s.log})`,
          next: { ...s, pc: set(s.pc, t, 'ready'), view: set(s.view, t, s.log) },
        };

  // A turn may claim the approval when it is ready and sees the record as unspent.
  // With a compare-and-set, the same step also marks the record spent.
  const check = (s: ApprovalState, t: number): Step<ApprovalState> | undefined =>
    s.pc[t] !== 'ready' || sees(s, t) !== 'unspent' || (serialize && busy(s))
      ? undefined
      : {
          name: spendMode === 'cas' ? `${name(t)} check (compare-and-set: unspent -> spent)` : `${name(t)} check`,
          next: { ...s, pc: set(s.pc, t, 'claimed'), log: spendMode === 'cas' ? 'spent' : s.log },
        };

  // 'before' only: record the spend as a separate step, ahead of the effect.
  const spend = (s: ApprovalState, t: number): Step<ApprovalState> | undefined =>
    spendMode !== 'before' || s.pc[t] !== 'claimed'
      ? undefined
      : { name: `${name(t)} spend (record spent)`, next: { ...s, pc: set(s.pc, t, 'armed'), log: 'spent' } };

  // Calling the tool: one more effect in the world.
  const effect = (s: ApprovalState, t: number): Step<ApprovalState> | undefined =>
    s.pc[t] !== (spendMode === 'before' ? 'armed' : 'claimed')
      ? undefined
      : {
          name: `${name(t)} effect (eff=${s.eff + 1})`,
          next: { ...s, pc: set(s.pc, t, spendMode === 'after' ? 'acted' : 'done'), eff: s.eff + 1 },
        };

  // 'after' only: record the spend once the effect has already happened.
  const record = (s: ApprovalState, t: number): Step<ApprovalState> | undefined =>
    spendMode !== 'after' || s.pc[t] !== 'acted'
      ? undefined
      : { name: `${name(t)} record (record spent)`, next: { ...s, pc: set(s.pc, t, 'done'), log: 'spent' } };

  const actions = [restore, check, spend, effect, record];
  const everyTurn = Array.from({ length: turns }, (_, t) => t);

  return {
    init: {
      pc: everyTurn.map(() => 'idle'),
      log: 'unspent',
      view: everyTurn.map(() => 'unread'),
      eff: 0,
    },
    next: (s) =>
      everyTurn.flatMap((t) => actions.map((action) => action(s, t))).filter((x) => x !== undefined),
    key: (s) => `${s.pc.join(',')}|${s.log}|${s.view.join(',')}|${s.eff}`,
    describeInit: 'init (record unspent, eff=0)',
    invariants: {
      // Never two effects.
      'at-most-once': (s) => s.eff <= 1,
      // Once it ran, the record says so.
      'no-resurrection': (s) => s.eff < 1 || s.log === 'spent',
    },
  };
}

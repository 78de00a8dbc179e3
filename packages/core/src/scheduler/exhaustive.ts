// Exhaustive exploration: depth-first over every order of releases and every adversary choice, by re-running the
// program from a fresh world for each schedule. Releases that commute are explored in one order only (sleep sets,
// Godefroid 1996): after exploring release a at a node, a sibling branch b need not try a again while a stays
// independent of everything done since, because b·a reaches the same state as a·b, already explored.
import { independent, type PendingGate, type Release } from './gate.js';
import { ScheduleMismatch, type ScheduleRun, type Selector } from './run.js';

export interface ExhaustiveOptions {
  /** Treat commuting releases as one (default true). Off, every order is run: the count to compare against. */
  readonly reduce?: boolean;
  /** Stop after this many runs and report the space as not exhausted. */
  readonly maxSchedules?: number;
}

export interface ExhaustiveStats {
  /** Runs that went to the end. */
  readonly schedules: number;
  /** Runs cut short because every pending release was asleep: the orders they lead to were explored elsewhere. */
  readonly pruned: number;
  /** True when every schedule in the bound was explored. */
  readonly exhausted: boolean;
}

interface Option {
  readonly release: Release;
  readonly gate: PendingGate;
  readonly key: string;
}

interface Node {
  readonly options: readonly Option[];
  /** Options not to try here: explored in an equivalent order elsewhere. */
  readonly sleep: ReadonlyMap<string, Option>;
  /** Options already explored from this node. */
  readonly done: Option[];
  chosen: number;
}

const keyOf = (r: Release) => (r.crash ? `${r.gate}!` : `${r.gate}=${r.choice}`);

function expand(pending: readonly PendingGate[]): Option[] {
  return pending.flatMap((gate) => {
    const releases: Release[] = Array.from({ length: gate.choices }, (_, choice) => ({ gate: gate.id, choice }));
    if (gate.crashable) releases.push({ gate: gate.id, choice: 0, crash: true });
    return releases.map((release) => ({ release, gate, key: keyOf(release) }));
  });
}

/**
 * Runs `runOne` once per schedule, with a fresh selector each time, until the space is explored. `runOne` must build
 * a fresh world for each run; `onRun` sees every run, complete or pruned.
 */
export async function exploreExhaustive(
  runOne: (selector: Selector) => Promise<ScheduleRun>,
  onRun: (run: ScheduleRun) => void | Promise<void>,
  options: ExhaustiveOptions = {},
): Promise<ExhaustiveStats> {
  const reduce = options.reduce ?? true;
  const maxSchedules = options.maxSchedules ?? Number.POSITIVE_INFINITY;
  const stack: Node[] = [];
  let schedules = 0;
  let pruned = 0;

  const sleepForChild = (parent: Node): Map<string, Option> => {
    const sleep = new Map<string, Option>();
    if (!reduce) return sleep;
    const taken = parent.options[parent.chosen]!;
    for (const option of [...parent.sleep.values(), ...parent.done]) {
      if (independent(option.gate, taken.gate)) sleep.set(option.key, option);
    }
    return sleep;
  };

  const selector = (): Selector => ({
    next(pending, depth) {
      const existing = stack[depth];
      if (existing) {
        // Re-running a prefix: the same gate must be pending, at the same place in the code, as last time.
        const expected = existing.options[existing.chosen]!;
        const now = pending.find((g) => g.id === expected.gate.id);
        if (
          !now ||
          now.label !== expected.gate.label ||
          now.choices !== expected.gate.choices ||
          now.crashable !== expected.gate.crashable
        ) {
          throw new ScheduleMismatch(
            `at step ${depth + 1} the subject was expected at ${expected.gate.id} ${expected.gate.label}, ` +
              `but is at ${pending.map((g) => `${g.id} ${g.label}`).join(', ') || 'no gate'}`,
          );
        }
        return expected.release;
      }
      const parent = stack[depth - 1];
      const sleep = parent ? sleepForChild(parent) : new Map<string, Option>();
      const opts = expand(pending);
      const first = opts.findIndex((o) => !sleep.has(o.key));
      if (first < 0) return 'stop';
      stack.push({ options: opts, sleep, done: [], chosen: first });
      return opts[first]!.release;
    },
  });

  for (;;) {
    if (schedules + pruned >= maxSchedules) return { schedules, pruned, exhausted: false };
    const run = await runOne(selector());
    if (run.status === 'stopped') pruned++;
    else schedules++;
    await onRun(run);
    // Backtrack: the deepest node with an option neither explored nor asleep.
    while (stack.length > 0) {
      const node = stack[stack.length - 1]!;
      node.done.push(node.options[node.chosen]!);
      const next = node.options.findIndex((o, i) => i > node.chosen && !node.sleep.has(o.key));
      if (next >= 0) {
        node.chosen = next;
        break;
      }
      stack.pop();
    }
    if (stack.length === 0) return { schedules, pruned, exhausted: true };
  }
}

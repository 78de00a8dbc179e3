// An explicit-state model checker, as TLC runs one: breadth-first over every reachable state, each invariant checked
// in every state, and for a violated invariant the shortest trace to it. Breadth-first is what makes it shortest.

export interface Step<S> {
  /** What happened, for the trace: `t1 restore (sees unspent)`. */
  readonly name: string;
  readonly next: S;
}

export interface Spec<S> {
  readonly init: S;
  /** Every step enabled in `state`. */
  readonly next: (state: S) => readonly Step<S>[];
  /** A key that is equal for equal states: how distinct states are counted. */
  readonly key: (state: S) => string;
  /** One line describing the initial state, the first entry of every trace. */
  readonly describeInit: string;
  readonly invariants: Readonly<Record<string, (state: S) => boolean>>;
}

export type InvariantVerdict =
  | { readonly verdict: 'holds' }
  | {
      readonly verdict: 'violated';
      /** States in the trace, the initial one included, as TLC counts them. */
      readonly traceStates: number;
      /** One entry per state: the initial state's description, then each step's name. */
      readonly trace: readonly string[];
    };

export interface CheckResult {
  readonly statesExplored: number;
  readonly invariants: Readonly<Record<string, InvariantVerdict>>;
}

interface Visit<S> {
  readonly state: S;
  readonly parent: Visit<S> | undefined;
  readonly stepName: string | undefined;
}

function traceOf<S>(visit: Visit<S>, describeInit: string): string[] {
  const names: string[] = [];
  for (let v: Visit<S> | undefined = visit; v?.stepName !== undefined; v = v.parent) names.push(v.stepName);
  return [describeInit, ...names.reverse()];
}

/** Explores every reachable state; keeps going after a violation so the state count is the whole space's. */
export function checkModel<S>(spec: Spec<S>): CheckResult {
  const seen = new Set<string>([spec.key(spec.init)]);
  const found = new Map<string, InvariantVerdict>();
  let frontier: Visit<S>[] = [{ state: spec.init, parent: undefined, stepName: undefined }];

  while (frontier.length > 0) {
    const nextFrontier: Visit<S>[] = [];
    for (const visit of frontier) {
      for (const [name, invariant] of Object.entries(spec.invariants)) {
        if (found.has(name) || invariant(visit.state)) continue;
        const trace = traceOf(visit, spec.describeInit);
        found.set(name, { verdict: 'violated', traceStates: trace.length, trace });
      }
      for (const step of spec.next(visit.state)) {
        const key = spec.key(step.next);
        if (seen.has(key)) continue;
        seen.add(key);
        nextFrontier.push({ state: step.next, parent: visit, stepName: step.name });
      }
    }
    frontier = nextFrontier;
  }

  const invariants: Record<string, InvariantVerdict> = {};
  for (const name of Object.keys(spec.invariants)) invariants[name] = found.get(name) ?? { verdict: 'holds' };
  return { statesExplored: seen.size, invariants };
}

// The design model's table: every combination of the three switches, each checked for both properties.
import { checkModel, type InvariantVerdict } from './check.js';
import { approvalSpec, MODEL_PROPERTIES, type SpendMode, type Switches } from './approval.js';

export type ModelPropertyId = (typeof MODEL_PROPERTIES)[number];

export interface ModelRow extends Switches {
  readonly statesExplored: number;
  readonly properties: Readonly<Record<ModelPropertyId, InvariantVerdict>>;
}

export interface ModelTable {
  readonly turns: number;
  readonly rows: readonly ModelRow[];
}

export const SPEND_MODES: readonly SpendMode[] = ['after', 'before', 'cas'];

/** The 12 combinations, in a fixed order: spend mode, then fresh view, then serialize. */
export function allSwitches(): Switches[] {
  return SPEND_MODES.flatMap((spendMode) =>
    [false, true].flatMap((freshView) => [false, true].map((serialize) => ({ spendMode, freshView, serialize }))),
  );
}

export function checkSwitches(switches: Switches, turns = 2): ModelRow {
  const result = checkModel(approvalSpec(switches, turns));
  const properties = Object.fromEntries(
    MODEL_PROPERTIES.map((id) => [id, result.invariants[id] ?? { verdict: 'holds' }]),
  ) as Record<ModelPropertyId, InvariantVerdict>;
  return { ...switches, statesExplored: result.statesExplored, properties };
}

export function modelTable(turns = 2): ModelTable {
  if (!Number.isInteger(turns) || turns < 1) throw new RangeError(`turns must be a positive integer, got ${turns}`);
  return { turns, rows: allSwitches().map((switches) => checkSwitches(switches, turns)) };
}

/** The switch combination's short name, as the reference runtime's wirings use it: `after-snapshot`, `cas-fresh-serial`. */
export function switchesName({ spendMode, freshView, serialize }: Switches): string {
  return [spendMode, freshView ? 'fresh' : 'snapshot', ...(serialize ? ['serial'] : [])].join('-');
}

// The results of the N shards of one run (`run --shard I/N`), put back together as the single run would have written
// them. Shards carry the whole split, so the merge can check that they are the parts of one plan, by one suite, with
// the same options, and that together they cover it exactly once; anything else is refused, naming the file.
import { compareTargets } from './matrix/journal.js';
import { unitKey } from './matrix/protocol.js';
import type { ResultCell, ResultsFile, ResultTarget, ShardInfo } from './results.js';
import { UsageError } from './usage-error.js';

export interface ShardFile {
  readonly name: string;
  readonly results: ResultsFile;
}

export interface Merged {
  readonly results: ResultsFile;
  /** Shards not given, or given but not finished: only with `partial`. */
  readonly missing: readonly string[];
}

const key = (t: { framework: string; version: string }) => `${t.framework}@${t.version}`;
/** The unit of the plan a cell belongs to: its wiring/store/scenario, or `*` for a version that would not load. */
const unitOf = (cell: ResultCell) => (cell.wiring === '*' ? '*' : unitKey(cell));

export function mergeShards(files: readonly ShardFile[], { partial = false } = {}): Merged {
  if (files.length === 0) throw new UsageError('merge needs the results files of the shards: merge A.json B.json ... --out DIR.');
  const shards = files.map(({ name, results }) => {
    if (!results.shard) throw new UsageError(`'${name}' is not one shard's results (it has no "shard"); merge combines the files that 'run --shard I/N' writes.`);
    return { name, results, shard: results.shard };
  });
  const [first] = shards;
  const suite = first!.results.environment?.suite;
  for (const s of shards.slice(1)) {
    const other = s.results.environment?.suite;
    if (other !== suite) throw new UsageError(`'${first!.name}' was run by suite ${suite ?? '(unknown)'} and '${s.name}' by ${other ?? '(unknown)'}: shards of one run come from one suite version.`);
    if (JSON.stringify(s.results.options) !== JSON.stringify(first!.results.options)) {
      throw new UsageError(`'${first!.name}' and '${s.name}' were run with different options (filters or exploration): they are not shards of one run.`);
    }
    if (s.shard.count !== first!.shard.count || s.shard.plan !== first!.shard.plan) {
      throw new UsageError(
        `'${first!.name}' (shard ${first!.shard.index}/${first!.shard.count}) and '${s.name}' (shard ${s.shard.index}/${s.shard.count}) split different plans ` +
          `(other framework versions, or other costs to balance by): run every shard from the same commit with the same arguments but --shard.`,
      );
    }
  }
  const byIndex = new Map<number, string>();
  for (const s of shards) {
    const twice = byIndex.get(s.shard.index);
    if (twice !== undefined) throw new UsageError(`'${twice}' and '${s.name}' are both shard ${s.shard.index}/${s.shard.count}: they overlap. Give each shard once.`);
    byIndex.set(s.shard.index, s.name);
  }

  // Every cell must be of a unit its shard was given, and no cell may come twice.
  const plan: ShardInfo['units'] = first!.shard.units;
  const owner = new Map(Object.entries(plan).flatMap(([target, units]) => units.map(([unit, shard]) => [`${target}/${unit}`, shard] as const)));
  const seen = new Map<string, string>();
  for (const s of shards) {
    for (const cell of s.results.cells) {
      const other = seen.get(cell.id);
      if (other !== undefined) throw new UsageError(`cell '${cell.id}' is in both '${other}' and '${s.name}': the inputs overlap.`);
      seen.set(cell.id, s.name);
    }
  }
  for (const s of shards) {
    for (const cell of s.results.cells) {
      const shard = owner.get(`${key(cell)}/${unitOf(cell)}`);
      if (shard !== s.shard.index) {
        throw new UsageError(`'${s.name}' (shard ${s.shard.index}/${s.shard.count}) holds cell '${cell.id}', which ${shard === undefined ? 'is not in the plan' : `is shard ${shard}'s`}: it is not a shard of this run.`);
      }
    }
  }

  const count = first!.shard.count;
  const missing = [
    ...Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i)).map((i) => `shard ${i}/${count} (not given)`),
    ...shards.filter((s) => !s.results.complete).map((s) => `shard ${s.shard.index}/${count} in '${s.name}' (did not finish; resume it with run --resume)`),
  ];
  if (missing.length > 0 && !partial) {
    throw new UsageError(`the shards do not cover the run: ${missing.join('; ')}. Merge them all, or pass --partial to merge what is there (the results then say they are incomplete).`);
  }

  const targets = new Map<string, ResultTarget>();
  for (const s of shards) {
    for (const t of s.results.targets ?? []) {
      const had = targets.get(key(t));
      if (had && JSON.stringify(had.packages) !== JSON.stringify(t.packages) && !had.error && !t.error) {
        throw new UsageError(`${key(t)} was loaded with other packages in '${s.name}' than in another shard (${JSON.stringify(t.packages)} vs ${JSON.stringify(had.packages)}): the shards did not run the same versions.`);
      }
      if (!had || t.error) targets.set(key(t), t);
    }
  }

  // Cells in the order the single run writes them: by version, then by unit in plan order (a unit's properties in
  // the order they came).
  const position = new Map(Object.entries(plan).flatMap(([target, units]) => units.map(([unit], i) => [`${target}/${unit}`, i] as const)));
  const cells = shards
    .flatMap((s) => s.results.cells)
    .map((cell, i) => ({ cell, i }))
    .sort((a, b) => compareTargets(a.cell, b.cell) || position.get(`${key(a.cell)}/${unitOf(a.cell)}`)! - position.get(`${key(b.cell)}/${unitOf(b.cell)}`)! || a.i - b.i)
    .map(({ cell }) => cell);

  const times = (pick: (r: ResultsFile) => string | undefined) => shards.map((s) => pick(s.results)).filter((t): t is string => t !== undefined).sort();
  const [started, updated] = [times((r) => r.started)[0], times((r) => r.updated).at(-1)];
  const results: ResultsFile = {
    schemaVersion: 2,
    ...(first!.results.environment ? { environment: first!.results.environment } : {}),
    ...(started ? { started } : {}),
    ...(updated ? { updated } : {}),
    targets: [...targets.values()].sort(compareTargets),
    ...(first!.results.planned ? { planned: first!.results.planned } : {}),
    ...(first!.results.options ? { options: first!.results.options } : {}),
    ...(missing.length === 0 ? { complete: true as const } : {}),
    cells,
  };
  return { results, missing };
}

// How far a long unit has got: reads the checkpoints a run keeps beside its results (`.RESULTS.checkpoints/`) and
// estimates, from each one's search stack, the share of the unit's schedules already run.
//
//   pnpm bench:checkpoints PATH [PATH ...]   checkpoint files, or folders searched for them (a run's whole folder)
//
// The estimate is Knuth's, read off the depth-first search: at each point of the stack the branches finished, the one
// running and the ones still to run; a branch not run yet is taken to be as large as the ones run. It runs high: the
// later branches of a point are smaller, their sleep sets holding the earlier ones. On the reference runtime's
// three-tabs cells, whose sizes are known (3,670, 12,846 and 18,064 schedules), it put the total at 2 to 5 times the
// real one from a tenth of the run to nine tenths (and about right in its first and last few percent). So it tells a
// unit a day from its end from one a month from it, not the hour.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { failer } from './args.js';

interface Keyed {
  readonly key: string;
}
interface SavedNode {
  readonly options: readonly (Keyed & { readonly gate: { readonly turn: string } })[];
  readonly sleep: readonly Keyed[];
  readonly done: readonly Keyed[];
  readonly backtrack: readonly string[];
  readonly chosen: number;
}
interface Saved {
  readonly ms: number;
  readonly cell: {
    readonly exploration: { readonly schedules: number; readonly bounded: number; readonly pruned: number; readonly stack: readonly SavedNode[] };
    readonly failures: readonly { readonly property: string }[];
  };
}

const fail = failer('checkpoints');
const paths = process.argv.slice(2);
if (paths.length === 0 || paths.includes('--help')) {
  console.log('usage: pnpm bench:checkpoints PATH [PATH ...]  (checkpoint files, or folders with them: a run keeps them in .RESULTS.checkpoints/)');
  process.exit(paths.length === 0 ? 2 : 0);
}

function files(path: string): string[] {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return fail(`no such file or folder: ${path}`);
  }
  if (!stat.isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(path, entry.name)) : entry.name.endsWith('.json') ? [join(path, entry.name)] : [],
  );
}

/**
 * At one point of the stack: branches finished, and all it has so far (finished, running, still to run). Still to run
 * is the explorer's own rule when it backtracks (packages/core/src/scheduler/exhaustive.ts): an option not done, not
 * asleep, of a turn in the backtrack set.
 */
function branches(node: SavedNode): { finished: number; total: number } {
  const done = new Set(node.done.map((o) => o.key));
  const asleep = new Set(node.sleep.map((o) => o.key));
  const turns = new Set(node.backtrack);
  const running = node.options[node.chosen]?.key;
  const toRun = node.options.filter((o) => o.key !== running && !done.has(o.key) && !asleep.has(o.key) && turns.has(o.gate.turn)).length;
  return { finished: done.size, total: done.size + 1 + toRun };
}

const hours = (ms: number) => (ms < 3_600_000 ? `${Math.round(ms / 60_000)} min` : ms < 86_400_000 * 2 ? `${(ms / 3_600_000).toFixed(1)} h` : `${Math.round(ms / 86_400_000)} days`);

const found = paths.flatMap(files);
if (found.length === 0) fail(`no checkpoint (.json) in ${paths.join(', ')}`);
for (const file of found) {
  let saved: Saved;
  try {
    saved = JSON.parse(readFileSync(file, 'utf8')) as Saved;
    if (!Array.isArray(saved.cell?.exploration?.stack)) throw new Error('no search stack');
  } catch (error) {
    console.log(`${relative(process.cwd(), file)}: not a checkpoint (${error instanceof Error ? error.message : String(error)})`);
    continue;
  }
  const { schedules, bounded, pruned, stack } = saved.cell.exploration;
  const run = schedules + bounded + pruned;
  let share = 0;
  let weight = 1;
  const levels: string[] = [];
  for (const node of stack) {
    const { finished, total } = branches(node);
    if (levels.length < 12) levels.push(`${finished}/${total}`);
    share += (weight * finished) / total;
    weight /= total;
  }
  const failing = [...new Set(saved.cell.failures.map((f) => f.property))];
  console.log(`${relative(process.cwd(), file)}:`);
  console.log(`  ${run} schedules in ${hours(saved.ms)}${failing.length ? `; fails so far: ${failing.join(', ')}` : '; no failure so far'}`);
  console.log(`  branches finished at the first points of the stack (of ${stack.length}): ${levels.join(' ')}`);
  if (share > 0) {
    const left = (saved.ms / share) * (1 - share);
    console.log(
      `  about ${(share * 100).toPrecision(2)}% run by the estimate: some ${Math.round(run / share).toLocaleString('en')} schedules in all, ` +
        `${hours(left)} more at the rate so far (it runs high, 2 to 5 times on cells of known size: see bench/checkpoints.ts)`,
    );
  } else {
    console.log('  no branch of the stack finished yet: too early to say');
  }
}

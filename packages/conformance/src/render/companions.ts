// The runs published beside a report's own, in folders under its reports' folder: a framework run apart (one whose
// row takes as long as the rest of the default matrix, published in reports/<framework>/, as `notInMatrix` says)
// still belongs in the one-minute answer of the folder it is published in. Which files are such runs is
// published.ts's, the same the audit draws from: a run of the default exploration, finished. Its rows are added where
// it ran the same way as this run and holds a framework this run has not; a file that cannot be read is said.
import { dirname, relative, resolve, sep } from 'node:path';
import { leftOutBecause, resultsFiles } from '../published.js';
import { readResults, type ResultCell, type ResultsFile, type ResultTarget, type RunOptions } from '../results.js';
import { runFlags } from './run-options.js';

/** A run published beside this one whose frameworks the one-minute answer adds, each from its own results. */
export interface CompanionRun {
  /** Its folder, relative to the reports' folder ('/' between parts): a framework's name. */
  readonly folder: string;
  /** The targets and cells of the frameworks it adds. */
  readonly targets: readonly ResultTarget[];
  readonly cells: readonly ResultCell[];
  /** When it last wrote a cell. */
  readonly updated?: string;
}

/** A run published beside this one that holds a framework this run has not, and why it is not in the answer. */
export interface LeftOutRun {
  readonly folder: string;
  /** The frameworks it would have added; none where its file could not be read. */
  readonly frameworks: readonly string[];
  readonly why: string;
}

export interface Companions {
  readonly runs: readonly CompanionRun[];
  readonly left: readonly LeftOutRun[];
}

/** A results file's targets, or for a version 1 file, those its cells name. */
export function targetsOf(results: Pick<ResultsFile, 'targets' | 'cells'>): ResultTarget[] {
  return results.targets
    ? [...results.targets]
    : [...new Set(results.cells.map((c) => `${c.framework}@${c.version}`))].map((key) => {
        const at = key.lastIndexOf('@');
        return { framework: key.slice(0, at), version: key.slice(at + 1), spec: key, packages: {} };
      });
}

/** The run's flags that set what its answer covers: its wirings are its own frameworks', so never compared. */
const flagsOf = (o: RunOptions) => runFlags({ ...o, wirings: undefined }) ?? "the default matrix's";

/** Why a companion that ran `theirs` does not compare with this run, which ran `mine`; undefined when it does. */
function differs(mine: RunOptions | undefined, theirs: RunOptions): string | undefined {
  // A results file that does not say how it was run (from before options were recorded) is taken as it comes.
  if (mine === undefined) return undefined;
  const ours = flagsOf(mine);
  const other = flagsOf(theirs);
  return ours === other ? undefined : `it ran with other options (${other}) than this run (${ours})`;
}

/**
 * The runs under `dir` (not its own results) whose frameworks this run has not: those that ran as this run did are
 * added to its answer, the others said with the reason. A file that cannot be read is said, never thrown: the index
 * is written all the same.
 */
export async function companionRuns(
  dir: string,
  input: { readonly targets: readonly ResultTarget[]; readonly options?: RunOptions },
  own?: string,
): Promise<Companions> {
  const top = resolve(dir);
  const files = await resultsFiles(top).catch(() => [] as string[]);
  const have = new Set(input.targets.map((t) => t.framework));
  const runs: CompanionRun[] = [];
  const left: LeftOutRun[] = [];
  for (const file of files) {
    if (dirname(file) === top || (own !== undefined && resolve(own) === file)) continue;
    const folder = relative(top, dirname(file)).split(sep).join('/');
    let results: ResultsFile;
    try {
      results = await readResults(file);
    } catch (error) {
      // Its message names the file as this machine has it: the reports name it from their folder.
      const message = error instanceof Error ? error.message.split(file).join(`${folder}/results.json`) : String(error);
      left.push({ folder, frameworks: [], why: message });
      continue;
    }
    const targets = targetsOf(results);
    const adds = [...new Set(targets.map((t) => t.framework))].filter((f) => !have.has(f));
    if (adds.length === 0) continue;
    const why = leftOutBecause(results) ?? differs(input.options, results.options!);
    if (why !== undefined) {
      left.push({ folder, frameworks: adds, why });
      continue;
    }
    for (const f of adds) have.add(f);
    runs.push({
      folder,
      targets: targets.filter((t) => adds.includes(t.framework)),
      cells: results.cells.filter((c) => adds.includes(c.framework)),
      ...(results.updated ? { updated: results.updated } : {}),
    });
  }
  // A run left out says only the frameworks no other run brought in; one that could not be read is always said.
  const said = left
    .map((l) => ({ ...l, frameworks: l.frameworks.filter((f) => !runs.some((r) => r.targets.some((t) => t.framework === f))) }))
    .filter((l, i) => left[i]!.frameworks.length === 0 || l.frameworks.length > 0);
  return { runs, left: said };
}

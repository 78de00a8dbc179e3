// `diff`: the cells whose verdict changed between two results files, as a maintainer checks a branch against a
// release, or one version against the next.
import { parseCommandArgs } from '../args.js';
import { invokedAs } from '../invoked-as.js';
import { shortVerdict, tallyVerdicts, verdictCell } from '../render/verdict.js';
import { readResults, type ResultCell, type RunOptions } from '../results.js';
import { UsageError } from '../usage-error.js';
import { exitCodesHelp, EXIT } from '../exit-codes.js';
import type { Command } from './command.js';

const HELP = `Usage: approval-conformance diff A.json B.json [options]

Lists the cells whose verdict changed from results file A to results file B,
and the cells only one of them has (a framework version one file lacks
altogether is one line). A verdict is pass, fail, allowed, n/a, error or
timeout; a fail that got shorter or longer is not a change. Each line names
the cell by its id in B (A's where only A has it), as 'replay' and 'repro'
take it, and the diff ends with the command that shows the counterexample of
the first cell that got worse. When the two runs covered other scenarios,
wirings, stores or properties, it warns: a cell a narrow run left out is in
one file only, never worse.

Options:
  --across-versions     match cells by framework, wiring, store, scenario and
                        property, ignoring the version: compare one version
                        with another (each file must then hold one version per
                        framework)
  --across-stores A,B   compare store A's cells in file A with store B's cells
                        in file B (the two files may be one): does a framework
                        give the same verdicts on PostgreSQL as on SQLite?
                        Cells of other stores are left out.
  --counts              also list the cells whose verdict is the same but whose
                        number of schedules explored or shortest
                        counterexample differs
  --steps               also list the cells whose verdict is the same but whose
                        shortest counterexample's length differs (schedule
                        counts are left out: a faster explorer runs fewer):
                        what must never move when the explorer changes
  --framework NAMES     compare only these frameworks' cells (comma-separated,
                        as in --framework reference,ai)
  --exit-code           exit 1 when a verdict changed or a cell is in one file
                        only, or with --counts or --steps a count differs (for
                        CI)
  --new-ok              with --exit-code: cells only in B (a wiring or version A
                        did not have) are listed but do not make it exit 1
  --fail-on new-failures
                        exit 1 only when a cell got worse from A to B: it was
                        pass, allowed or n/a and is now fail, error or timeout,
                        or it is only in B and fails, errs or timed out (for a
                        maintainer's CI: a branch against a release)
  -h, --help            show this help

Examples:
  approval-conformance diff old.json new.json                  # verdicts that changed
  approval-conformance diff bench/baseline/results.json reports/results.json --steps
  approval-conformance diff release.json branch.json --across-versions --fail-on new-failures

${exitCodesHelp('with --exit-code, something changed; with --fail-on, a cell\n     got worse (without either, diff exits 0)')}`;

/** Verdicts that are a failure of the cell: what `--fail-on new-failures` counts when a cell reaches one. */
const BAD = new Set(['fail', 'error', 'timeout']);

/** A cell's key for matching: its id, without the version and/or the store when those are compared across. */
function keyOf(c: ResultCell, across: { versions: boolean; stores: boolean }) {
  const [target, wiring, , ...rest] = c.id.split('/');
  const key = across.versions ? target!.replace(/@.*$/, '') : target!;
  return [key, wiring, ...(across.stores ? [] : [c.store]), ...rest].join('/');
}

const targetOf = (key: string) => key.split('/')[0]!;
const count = (mine: Map<string, ResultCell>, other: Map<string, ResultCell>) => [...mine.keys()].filter((k) => !other.has(k)).length;

/**
 * The cells of file `side` that the other file lacks: a line each, but a framework version the other file lacks
 * altogether is one line with its verdicts counted (a PostgreSQL run of two versions, compared with the whole matrix
 * on SQLite, names each version it did not run once).
 */
function onlyIn(side: 'A' | 'B', mine: Map<string, ResultCell>, other: Map<string, ResultCell>, otherStore?: string): string[] {
  const mark = side === 'A' ? '-' : '+';
  const otherTargets = new Set([...other.keys()].map(targetOf));
  const lines: string[] = [];
  const whole = new Map<string, [string, ResultCell][]>();
  for (const [key, c] of mine) {
    if (other.has(key)) continue;
    if (otherTargets.has(targetOf(key))) lines.push(`${mark} ${c.id}: ${verdictCell(c)} (only in ${side})`);
    else {
      const target = `${c.framework}@${c.version}`;
      whole.set(target, [...(whole.get(target) ?? []), [key, c]]);
    }
  }
  for (const [target, cells] of whole) {
    if (cells.length === 1) {
      lines.push(`${mark} ${cells[0]![1].id}: ${verdictCell(cells[0]![1])} (only in ${side})`);
      continue;
    }
    const tally = tallyVerdicts(cells.map(([, c]) => c), shortVerdict);
    const none = `${side === 'A' ? 'B' : 'A'} has none of them${otherStore ? ` on ${otherStore}` : ''}`;
    lines.push(`${mark} ${target}: ${cells.length} cells (${tally}), only in ${side}; ${none}`);
  }
  return lines;
}

/** For one verdict on both sides: how the schedules explored (if asked) or the shortest counterexample's steps differ. */
function countsMoved(a: ResultCell, b: ResultCell, schedules: boolean): string | undefined {
  const moved: string[] = [];
  if (schedules && a.schedules !== b.schedules) moved.push(`schedules ${a.schedules} → ${b.schedules}`);
  const [sa, sb] = [a.counterexample?.steps, b.counterexample?.steps];
  if (sa !== sb) moved.push(`steps ${sa ?? 'none'} → ${sb ?? 'none'}`);
  return moved.length ? moved.join(', ') : undefined;
}

/** Where A's cell was, when the line names B's and they differ in version or store (compared across them). */
function whereA(a: ResultCell, b: ResultCell): string {
  const differ = [...(a.version !== b.version ? [`${a.framework}@${a.version}`] : []), ...(a.store !== b.store ? [`on ${a.store}`] : [])];
  return differ.length ? ` in A (${differ.join(', ')})` : '';
}

/**
 * How the two runs' scopes differ, in words: the scenarios, wirings, stores and properties each ran, and how each
 * explored. A cell one run left out is "in one file only", never worse: a narrow run can hide a regression.
 */
export function scopesDiffer(a: RunOptions | undefined, b: RunOptions | undefined, acrossStores: boolean): string[] {
  if (!a || !b) return [];
  const all = (list: readonly string[] | undefined) => (list === undefined ? 'all' : [...list].sort().join(', '));
  const lines: string[] = [];
  const names: readonly ('scenarios' | 'wirings' | 'stores' | 'properties')[] = ['scenarios', 'wirings', ...(acrossStores ? [] : (['stores'] as const)), 'properties'];
  for (const name of names) {
    const [x, y] = [all(a[name]), all(b[name])];
    if (x !== y) lines.push(`${name}: A ran ${x}; B ran ${y}`);
  }
  const how = (o: RunOptions) => (o.mode === 'sampled' ? `sampled ${o.samples ?? ''}`.trim() : 'exhaustive');
  if (how(a) !== how(b)) lines.push(`exploration: A ${how(a)}, B ${how(b)}`);
  return lines;
}

export const diffCommand: Command = {
  name: 'diff',
  summary: 'list the cells whose verdict changed between two results files',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('diff', argv, {
      'across-versions': { type: 'boolean' },
      'across-stores': { type: 'string' },
      counts: { type: 'boolean' },
      steps: { type: 'boolean' },
      framework: { type: 'string' },
      'exit-code': { type: 'boolean' },
      'new-ok': { type: 'boolean' },
      'fail-on': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    const failOn = values['fail-on'];
    if (failOn !== undefined && failOn !== 'new-failures') {
      throw new UsageError(`--fail-on takes new-failures (a cell that got worse from A to B), not '${failOn}'.`);
    }
    if (values.help) {
      io.out(HELP);
      return EXIT.done;
    }
    if (positionals.length !== 2) throw new UsageError(`diff takes two results files, A and B; see 'approval-conformance diff --help'.`);
    const stores = values['across-stores']?.split(',').map((s) => s.trim());
    if (stores && (stores.length !== 2 || stores.some((s) => !s))) {
      throw new UsageError(`--across-stores takes two stores, as in --across-stores sqlite,postgres.`);
    }
    const across = { versions: values['across-versions'] ?? false, stores: stores !== undefined };
    const frameworks = values.framework?.split(',').map((f) => f.trim());
    if (frameworks && frameworks.some((f) => !f)) throw new UsageError(`--framework takes names, as in --framework reference,ai.`);
    const compare = values.counts || values.steps ? { schedules: values.counts ?? false } : undefined;
    const [a, b] = await Promise.all(positionals.map((f) => readResults(f)));
    const index = (cells: readonly ResultCell[], name: string, store: string | undefined) => {
      const map = new Map<string, ResultCell>();
      for (const c of cells) {
        if (store !== undefined && c.store !== store) continue;
        if (frameworks && !frameworks.includes(c.framework)) continue;
        const key = keyOf(c, across);
        if (map.has(key)) {
          throw new UsageError(`${name} holds ${key} for more than one version; compare files with one version per framework.`);
        }
        map.set(key, c);
      }
      return map;
    };
    const before = index(a!.cells, positionals[0]!, stores?.[0]);
    const after = index(b!.cells, positionals[1]!, stores?.[1]);
    if (stores) {
      for (const [store, map, file] of [[stores[0], before, positionals[0]], [stores[1], after, positionals[1]]] as const) {
        if (map.size === 0) throw new UsageError(`${file} has no cell on store '${store}'; name stores its runs used.`);
      }
    }
    if (frameworks) {
      for (const [map, file] of [[before, positionals[0]], [after, positionals[1]]] as const) {
        if (map.size === 0) throw new UsageError(`${file} has no cell of ${frameworks.join(' or ')}; name frameworks it has.`);
      }
    }
    const changes: string[] = [];
    const moves: string[] = [];
    for (const [key, old] of before) {
      const now = after.get(key);
      if (!now) continue;
      const moved = compare ? countsMoved(old, now, compare.schedules) : undefined;
      // Each line names B's cell by its id, as `replay` and `repro` take it (and A's version or store, if other).
      if (now.verdict !== old.verdict) changes.push(`~ ${now.id}: ${verdictCell(old)}${whereA(old, now)} → ${verdictCell(now)}`);
      else if (moved) moves.push(`= ${now.id}: ${verdictCell(old)}${whereA(old, now)}, ${moved}`);
    }
    const [changed, counted] = [changes.length, moves.length];
    const [gone, added] = [onlyIn('A', before, after, stores?.[1]), onlyIn('B', after, before, stores?.[0])];
    const lines = [...changes, ...moves, ...gone, ...added];
    const single = count(before, after) + count(after, before);
    const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
    const summary = [
      `${plural(changed, 'verdict')} changed`,
      ...(compare ? [`${counted} with other ${compare.schedules ? 'counts' : 'lengths'}`] : []),
      `${plural(single, 'cell')} in one file only`,
    ].join(', ');
    const unchanged = compare ? `No verdict or ${compare.schedules ? 'count' : 'counterexample length'} changed.` : 'No verdict changed.';
    io.out(lines.length === 0 ? `${unchanged}\n` : `${lines.join('\n')}\n\n${summary}.\n`);
    // A narrower run can hide a regression: say so when the two runs covered other things.
    const scopes = scopesDiffer(a!.options, b!.options, stores !== undefined);
    if (scopes.length > 0) {
      io.err(
        `Warning: the two runs' scopes differ (${scopes.join('; ')}). A cell one run left out is in one file only, never worse: ` +
          'run both with the same options (every scenario, as run does by default) to compare them.\n',
      );
    }
    // Worse: a verdict that became a failure, or a cell only in B that fails (a new one counts as worse too).
    const worse = [...after].filter(([key, now]) => BAD.has(now.verdict) && !BAD.has(before.get(key)?.verdict ?? 'pass')).map(([key, now]) => ({ now, changed: before.has(key) }));
    if (failOn) {
      const changedWorse = worse.filter((w) => w.changed).length;
      const parts = [`${changedWorse} whose verdict changed`, `${worse.length - changedWorse} only in B`];
      io.out(
        worse.length === 0
          ? 'No cell got worse.\n'
          : `${plural(worse.length, 'cell')} got worse (${parts.join(', ')}): ${worse.slice(0, 5).map((w) => w.now.id).join(', ')}${worse.length > 5 ? ', ...' : ''}.\n`,
      );
    }
    // From the diff to the counterexample: the first worse cell that failed (error and timeout have none); with
    // --new-ok, a cell only in B is not one (the run was told new cells are expected).
    const first = worse.find((w) => w.now.verdict === 'fail' && (w.changed || !values['new-ok']))?.now;
    if (first) {
      const file = positionals[1]!;
      io.out(
        `The counterexample of the first cell that got worse: ${invokedAs()} replay ${file} --cell ${first.id}\n` +
          `As a standalone script: ${invokedAs()} repro ${file} --cell ${first.id} --out repro\n`,
      );
    }
    if (failOn && worse.length > 0) return EXIT.gate;
    // With --new-ok, cells only in B (a wiring or version A did not have) are listed but do not trip --exit-code.
    const tripping = values['new-ok'] ? [...changes, ...moves, ...gone] : lines;
    return values['exit-code'] && tripping.length > 0 ? EXIT.gate : EXIT.done;
  },
};

// `diff`: the cells whose verdict changed between two results files, as a maintainer checks a branch against a
// release, or one version against the next.
import { parseCommandArgs } from '../args.js';
import { verdictCell } from '../render/verdict.js';
import { readResults, type ResultCell } from '../results.js';
import { UsageError } from '../usage-error.js';
import type { Command } from './command.js';

const HELP = `Usage: approval-conformance diff A.json B.json [options]

Lists the cells whose verdict changed from results file A to results file B,
and the cells only one of them has (a framework version one file lacks
altogether is one line). A verdict is pass, fail, allowed, n/a, error or
timeout; a fail that got shorter or longer is not a change.

Options:
  --across-versions     match cells by framework, wiring, store, scenario and
                        property, ignoring the version: compare one version
                        with another (each file must then hold one version per
                        framework)
  --across-stores A,B   compare store A's cells in file A with store B's cells
                        in file B (the two files may be one): does a framework
                        give the same verdicts on PostgreSQL as on SQLite?
                        Cells of other stores are left out.
  --exit-code           exit 1 when a verdict changed or a cell is in one file
                        only (for CI)
  -h, --help            show this help

Exit codes: 0 (with --exit-code: nothing changed), 1 (only with --exit-code:
something changed), 2 bad input.
`;

/** A cell's key for matching: its id, without the version and/or the store when those are compared across. */
function keyOf(c: ResultCell, across: { versions: boolean; stores: boolean }) {
  const [target, wiring, , ...rest] = c.id.split('/');
  const key = across.versions ? target!.replace(/@.*$/, '') : target!;
  return [key, wiring, ...(across.stores ? [] : [c.store]), ...rest].join('/');
}

export const diffCommand: Command = {
  name: 'diff',
  summary: 'list the cells whose verdict changed between two results files',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('diff', argv, {
      'across-versions': { type: 'boolean' },
      'across-stores': { type: 'string' },
      'exit-code': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.out(HELP);
      return 0;
    }
    if (positionals.length !== 2) throw new UsageError(`diff takes two results files, A and B; see 'approval-conformance diff --help'.`);
    const stores = values['across-stores']?.split(',').map((s) => s.trim());
    if (stores && (stores.length !== 2 || stores.some((s) => !s))) {
      throw new UsageError(`--across-stores takes two stores, as in --across-stores sqlite,postgres.`);
    }
    const across = { versions: values['across-versions'] ?? false, stores: stores !== undefined };
    const [a, b] = await Promise.all(positionals.map((f) => readResults(f)));
    const index = (cells: readonly ResultCell[], name: string, store: string | undefined) => {
      const map = new Map<string, ResultCell>();
      for (const c of cells) {
        if (store !== undefined && c.store !== store) continue;
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
    const lines: string[] = [];
    for (const [key, old] of before) {
      const now = after.get(key);
      if (now && now.verdict !== old.verdict) lines.push(`~ ${key}: ${verdictCell(old)} → ${verdictCell(now)}`);
    }
    const changed = lines.length;
    // A target (framework@version) that one file lacks altogether is one line, not one per cell: a PostgreSQL run of
    // two versions, compared with the whole matrix on SQLite, names each version it did not run once.
    let single = 0;
    const target = (key: string) => key.split('/')[0]!;
    const onlyIn = (side: 'A' | 'B', mark: string, mine: Map<string, ResultCell>, other: Map<string, ResultCell>, otherStore?: string) => {
      const none = `${side === 'A' ? 'B' : 'A'} has none of its cells${otherStore ? ` on ${otherStore}` : ''}`;
      const otherTargets = new Set([...other.keys()].map(target));
      const whole = new Map<string, number>();
      for (const [key, c] of mine) {
        if (other.has(key)) continue;
        single++;
        if (otherTargets.has(target(key))) lines.push(`${mark} ${key}: ${verdictCell(c)} (only in ${side})`);
        else whole.set(target(key), (whole.get(target(key)) ?? 0) + 1);
      }
      for (const [t, n] of whole) lines.push(`${mark} ${t}: ${n} cell${n === 1 ? '' : 's'}, only in ${side} (${none})`);
    };
    onlyIn('A', '-', before, after, stores?.[1]);
    onlyIn('B', '+', after, before, stores?.[0]);
    io.out(lines.length === 0 ? 'No verdict changed.\n' : `${lines.join('\n')}\n\n${changed} verdict${changed === 1 ? '' : 's'} changed, ${single} cell${single === 1 ? '' : 's'} in one file only.\n`);
    return values['exit-code'] && lines.length > 0 ? 1 : 0;
  },
};

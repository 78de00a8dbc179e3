// `diff`: the cells whose verdict changed between two results files, as a maintainer checks a branch against a
// release, or one version against the next.
import { parseCommandArgs } from '../args.js';
import { verdictCell } from '../render/verdict.js';
import { readResults, type ResultCell } from '../results.js';
import { UsageError } from '../usage-error.js';
import type { Command } from './command.js';

const HELP = `Usage: approval-conformance diff A.json B.json [--across-versions]

Lists the cells whose verdict changed from results file A to results file B,
and the cells only one of them has. A verdict is pass, fail, allowed, n/a,
error or timeout; a fail that got shorter or longer is not a change.

Options:
  --across-versions  match cells by framework, wiring, store, scenario and
                     property, ignoring the version: compare one version with
                     another (each file must then hold one version per framework)
  -h, --help         show this help

Exit codes: 0 whether or not anything changed, 2 bad input.
`;

/** A cell's key for matching: its id, or its id without the version. */
const keyOf = (c: ResultCell, across: boolean) => (across ? c.id.replace(/^([^@/]+)@[^/]+/, '$1') : c.id);

export const diffCommand: Command = {
  name: 'diff',
  summary: 'list the cells whose verdict changed between two results files',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('diff', argv, {
      'across-versions': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.out(HELP);
      return 0;
    }
    if (positionals.length !== 2) throw new UsageError(`diff takes two results files, A and B; see 'approval-conformance diff --help'.`);
    const across = values['across-versions'] ?? false;
    const [a, b] = await Promise.all(positionals.map((f) => readResults(f)));
    const index = (cells: readonly ResultCell[], name: string) => {
      const map = new Map<string, ResultCell>();
      for (const c of cells) {
        const key = keyOf(c, across);
        if (map.has(key)) {
          throw new UsageError(`${name} holds ${key} for more than one version; compare files with one version per framework.`);
        }
        map.set(key, c);
      }
      return map;
    };
    const before = index(a!.cells, positionals[0]!);
    const after = index(b!.cells, positionals[1]!);
    const lines: string[] = [];
    for (const [key, old] of before) {
      const now = after.get(key);
      if (!now) lines.push(`- ${key}: ${verdictCell(old)} (only in A)`);
      else if (now.verdict !== old.verdict) lines.push(`~ ${key}: ${verdictCell(old)} → ${verdictCell(now)}`);
    }
    for (const [key, now] of after) if (!before.has(key)) lines.push(`+ ${key}: ${verdictCell(now)} (only in B)`);
    const changed = lines.filter((l) => l.startsWith('~')).length;
    io.out(lines.length === 0 ? 'No verdict changed.\n' : `${lines.join('\n')}\n\n${changed} verdict${changed === 1 ? '' : 's'} changed, ${lines.length - changed} cell${lines.length - changed === 1 ? '' : 's'} in one file only.\n`);
    return 0;
  },
};

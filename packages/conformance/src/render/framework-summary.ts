// The top of a framework's page: each version's wirings, property by property (does any wiring keep it, and which),
// what each wiring is, and what ran on fewer versions than the rest. The cell-by-cell grid follows it.
import { PROPERTY_IDS } from '@approval-conformance/core';
import type { ResultCell } from '../results.js';
import type { Block, Cell, Inline } from './blocks.js';
import { representative, wiringOutcomes } from './decider.js';
import type { ReportInput } from './markdown.js';

export function frameworkSummary(f: Inline, framework: string, input: ReportInput): Block[] {
  const cells = input.cells.filter((c) => c.framework === framework);
  const targets = input.targets.filter((t) => t.framework === framework && cells.some((c) => c.version === t.version));
  const properties = PROPERTY_IDS.filter((p) => cells.some((c) => c.property === p));
  const rows: Cell[][] = [];
  for (const target of targets) {
    for (const w of wiringOutcomes(target, input.cells)) {
      const own = properties.map((p): Cell => {
        const o = w.properties.get(p)!;
        if (o.status === 'not-run') return { inline: '–', className: 'not-applicable' };
        if (o.status === 'fails') {
          const text = f.strong(f.text(`fails ${o.failing.length}/${o.ran}`));
          return { inline: f.link(text, f.storyHref(representative(o)!)), className: 'fail' };
        }
        if (o.status === 'holds') return { inline: f.text(`holds (${o.ran})`), className: 'pass' };
        return { inline: f.text(o.status === 'broken' ? 'error' : o.status === 'allowed' ? 'allowed' : `holds (${o.ran}, not all exhaustive)`), className: o.status === 'broken' ? 'error' : 'allowed' };
      });
      const role = w.docsDefault ? ` ${f.text('(docs default)')}` : w.remedy ? ` ${f.link(f.text("(the framework's fix)"), w.remedy)}` : '';
      rows.push([f.text(target.version), `${f.code(w.wiring)}${role}`, ...own]);
    }
  }
  const blocks: Block[] = [
    { kind: 'h', level: 2, text: 'By wiring', id: 'by-wiring' },
    {
      kind: 'p',
      inline: f.text(
        'Per version and wiring, each property over every scenario and store: it holds in all its cells (how many), or fails in some; a failure links to ' +
          'its shortest counterexample. The grid below has every cell.',
      ),
    },
    { kind: 'table', head: [f.text('version'), f.text('wiring'), ...properties.map((p) => f.code(p))], rows },
  ];
  const described = [...targets].reverse().find((t) => t.wirings?.length)?.wirings;
  if (described) {
    const ran = new Set(cells.map((c) => c.wiring));
    blocks.push({ kind: 'ul', items: described.filter((w) => ran.has(w.id)).map((w) => `${f.code(w.id)}: ${f.text(w.description)}`) });
    // Wirings with no cell here: say which, and why, as far as the results know it.
    const left = described.filter((w) => !ran.has(w.id));
    if (left.length > 0 && cells.length > 0) {
      for (const [why, ids] of leftOut(left.map((w) => w.id), input)) {
        blocks.push({ kind: 'p', inline: f.text('Not in these results: ') + ids.map((id) => f.code(id)).join(', ') + LEFT_OUT[why](f) });
      }
    }
  }
  const narrower = fewerVersions(cells);
  if (narrower.length > 0) {
    const why = f.text(" The default matrix runs the guarded wirings, and stores whose verdicts equal another's, on the newest default version only; ") +
      f.code('run --framework NAME@VERSION') + f.text(' runs them on any.');
    blocks.push({ kind: 'p', inline: f.text(narrower.join(' ')) + why });
  }
  return blocks;
}

/**
 * Why a run has no cell of a wiring: its `--wiring` did not name it (`filtered`); it named it and did not finish
 * (`unfinished`); it named no wiring and did not finish (`unfinished-or-default`: the default matrix may also leave the
 * wiring out); the default matrix, finished, leaves it out for time (`default`); or it named it and finished with no
 * cell of it (`none`).
 */
type LeftOut = 'filtered' | 'unfinished' | 'unfinished-or-default' | 'default' | 'none';

export function leftOut(wirings: readonly string[], input: Pick<ReportInput, 'options' | 'complete'>): Map<LeftOut, string[]> {
  const named = input.options?.wirings;
  const groups = new Map<LeftOut, string[]>();
  for (const id of wirings) {
    const why: LeftOut =
      named !== undefined && !named.includes(id)
        ? 'filtered'
        : !input.complete
          ? named === undefined ? 'unfinished-or-default' : 'unfinished'
          : named === undefined ? 'default' : 'none';
    groups.set(why, [...(groups.get(why) ?? []), id]);
  }
  return groups;
}

const EVERY_WIRING = (f: Inline) => f.code('run --framework NAME@VERSION') + f.text(' runs every wiring.');

const LEFT_OUT: Readonly<Record<LeftOut, (f: Inline) => string>> = {
  filtered: (f) => f.text(" (this run's ") + f.code('--wiring') + f.text(' did not name them); ') + EVERY_WIRING(f),
  unfinished: (f) => f.text(' (the run named them and did not finish them: continue it with ') + f.code('--resume') + f.text(').'),
  'unfinished-or-default': (f) =>
    f.text(' (the run did not finish, and the default matrix leaves some wirings out for time; continue it with ') + f.code('--resume') + f.text(').'),
  default: (f) => f.text(' (the default matrix leaves them out for time: each of their largest cells runs for minutes); ') + EVERY_WIRING(f),
  none: (f) => f.text(' (the run named them, and has no cell of them).'),
};

/** Wirings and stores that ran on some of the versions only (a framework's default matrix runs some on the newest). */
function fewerVersions(cells: readonly ResultCell[]): string[] {
  const versions = [...new Set(cells.map((c) => c.version))];
  if (versions.length < 2) return [];
  // By the versions they ran on: "Ran on 1.71.0 only: the wirings a, b and the store c."
  const byVersions = new Map<string, string[]>();
  for (const [kind, of] of [['wiring', (c: ResultCell) => c.wiring], ['store', (c: ResultCell) => c.store]] as const) {
    for (const name of [...new Set(cells.map(of))].filter((n) => n !== '*')) {
      const on = versions.filter((v) => cells.some((c) => c.version === v && of(c) === name && c.verdict !== 'not-applicable'));
      const anywhere = versions.filter((v) => cells.some((c) => c.version === v && of(c) === name));
      if (anywhere.length < versions.length && on.length > 0) byVersions.set(on.join(', '), [...(byVersions.get(on.join(', ')) ?? []), `${kind} ${name}`]);
    }
  }
  return [...byVersions].map(([on, what]) => `Ran on ${on} only: the ${what.join(', the ')}.`);
}

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
    // A framework whose default matrix runs some of its wirings only (their cells cost minutes each): say which not.
    const left = described.filter((w) => !ran.has(w.id));
    if (left.length > 0 && cells.length > 0) {
      blocks.push({
        kind: 'p',
        inline:
          f.text('Not in these results: ') +
          left.map((w) => f.code(w.id)).join(', ') +
          f.text(" (the default matrix leaves them out for time: each of their largest cells runs for minutes); ") +
          f.code('run --framework NAME@VERSION') +
          f.text(' runs every wiring.'),
      });
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

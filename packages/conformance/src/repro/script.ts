// A standalone reproduction of one failing cell: a folder with a package.json that pins the framework (nothing of
// this suite), one script in plain JavaScript, and a README. The script is the scenario's world, the framework's
// documented app, and the scenario's steps, in that order (scenarios.ts, and a module per framework). It prints what
// happened and exits 1 when the bug shows, 0 when it does not.
import type { FrameworkRepro } from '@approval-conformance/core';
import type { ResultCell } from '../results.js';
import { md } from '../render/escape.js';
import { storyPath } from '../render/story-text.js';
import { FOLLOW_UP_MARK, notWrittenWhy, OVERLAP_MARK, REPORT, scenarioRepro } from './scenarios.js';

export type ReproFiles = {
  readonly 'package.json': string;
  readonly 'repro.mjs': string;
  readonly 'README.md': string;
};

export type ReproPlan =
  | { readonly kind: 'repro'; readonly files: ReproFiles; readonly lines: number }
  /** A cell with nothing to reproduce: it did not fail. */
  | { readonly kind: 'nothing'; readonly why: string }
  /** A failing cell whose schedule is not forced outside the suite; `why` says what stands in the way. */
  | { readonly kind: 'cannot'; readonly why: string };

export interface ReproTarget {
  readonly framework: string;
  readonly version: string;
  readonly wiring: string;
  readonly scenario: string;
  /** The cell's store: it names the folder only for a scenario whose script differs by store. */
  readonly store?: string;
}

/**
 * A cell's story as the README links it, from the reproduction's folder: given where the reports are known to be
 * (`report` writes reports/repro/ beside reports/stories/). Without it the README names the story's path in the
 * reports of the results file; either way it tells one story itself, so that it reads the same wherever it is copied.
 */
export type StoryLink = (cell: ResultCell) => string;

/**
 * What the README says of the cells a script reproduces: each with its story, then one story itself, the shortest of
 * the property the script watches (`property`: two transfers, say), or else the shortest.
 */
function storiesOf(failing: readonly ResultCell[], property: string, link: StoryLink | undefined): string[] {
  if (failing.length === 0) return [];
  const told = failing.filter((c) => (c.counterexample?.story?.length ?? 0) > 0);
  const shortest = [...told].sort((a, b) => Number(b.property === property) - Number(a.property === property) || a.counterexample!.steps - b.counterexample!.steps)[0];
  const where = (c: ResultCell) => (!c.counterexample ? '' : link ? `: [its story](${link(c)})` : `: \`${storyPath(c)}\``);
  const witness = new Set(shortest?.counterexample?.witness ?? []);
  return [
    '',
    link
      ? 'It reproduces these cells of the suite, each linking its story and shortest schedule in the reports:'
      : "It reproduces these cells of the suite; each one's story and shortest schedule are in the reports written from the results file (`approval-conformance report RESULTS`), at the path given:",
    '',
    ...failing.map((c) => `- \`${c.id}\` (${c.counterexample?.steps ?? '?'} steps)${where(c)}`),
    ...(shortest
      ? [
          '',
          `The suite's story of \`${shortest.id}\`, schedule \`${shortest.counterexample!.schedule}\` (in bold, the steps that show the bug):`,
          '',
          ...shortest.counterexample!.story.map((line, i) => `${i + 1}. ${witness.has(i) ? `**${md(line)}**` : md(line)}`),
        ]
      : []),
  ];
}

/**
 * The app without what the scenario's steps never call: `forge` (an approval sent with no user) is the tamper
 * scenario's alone, so every other script would declare it unused.
 */
function usedApp(app: string, steps: string): string {
  if (/\bforge\(/.test(steps)) return app;
  return app.replace(/^const forge = [^\n]*\n/m, '').replace(/^async function forge\(\) \{\n[\s\S]*?^\}\n/m, '');
}

const dirName = (t: ReproTarget) =>
  `${t.framework}@${t.version}-${t.wiring}-${t.scenario}${scenarioRepro(t.scenario)?.byStore && t.store ? `-${t.store}` : ''}`;

/** Where the reproduction of a target goes inside a folder of them (`reports/repro/`). */
export const reproDir = dirName;

/** The script and its folder for a target, whatever its verdict: a test runs passing ones too, to see them pass. */
export function reproFiles(t: ReproTarget, frameworks: readonly FrameworkRepro[], cells: readonly ResultCell[] = [], stories?: StoryLink): ReproPlan {
  if (t.wiring.startsWith('guarded-')) {
    return {
      kind: 'cannot',
      why: `${t.wiring} is the documented pattern with this suite's approval guard added; a reproduction of it needs the guard, so it would not run on ${t.framework} alone. Replay it in the suite: approval-conformance replay RESULTS --cell ID.`,
    };
  }
  const framework = frameworks.find((f) => f.framework === t.framework);
  const scenario = scenarioRepro(t.scenario);
  const app = framework?.app(t.wiring, scenario?.byStore ? (t.store ?? 'memory') : undefined, t.scenario);
  if (!framework || !app) {
    return { kind: 'cannot', why: `no standalone app is written for ${t.framework}'s ${t.wiring} wiring yet. Replay the cell in the suite: approval-conformance replay RESULTS --cell ID.` };
  }
  const cannot = framework.cannot?.(t.wiring, t.scenario);
  if (cannot) return { kind: 'cannot', why: `${cannot} Replay it in the suite: approval-conformance replay RESULTS --cell ID.` };
  if (!scenario || (t.scenario === 'overlapping-turns' && !app.app.includes(OVERLAP_MARK)) || (t.scenario === 'replay' && !app.app.includes(FOLLOW_UP_MARK))) {
    const needs =
      t.scenario === 'replay'
        ? 'an agent that goes on to ask for its next action once the first ran, for the answer sent again to land on'
        : "a second request in the same chat and the resume's save held until that request saved its card";
    return {
      kind: 'cannot',
      why: `${scenario ? `no ${t.scenario} reproduction is written for ${t.framework}'s ${t.wiring} yet: it needs ${needs}.` : notWrittenWhy(t.scenario)} Replay it in the suite: approval-conformance replay RESULTS --cell ID.`,
    };
  }
  if (scenario.byStore && !/\basync function restart\(/.test(app.app)) {
    return {
      kind: 'cannot',
      why: `no ${t.scenario} reproduction is written for ${t.framework}'s ${t.wiring} on the ${t.store ?? 'memory'} store yet: it needs the app started again over what that store keeps. Replay it in the suite: approval-conformance replay RESULTS --cell ID.`,
    };
  }
  const script = [
    `// ${t.framework} ${t.version}, ${t.wiring}: ${scenario.shows}.\n// Generated by approval-conformance repro; runs with ${t.framework} alone: npm install && node repro.mjs`,
    app.imports,
    scenario.world,
    '// What the app tells the user about the transfer.\nconst told = [];',
    usedApp(app.app, scenario.steps),
    REPORT,
    scenario.steps,
    ...(app.finish ? [app.finish] : []),
  ].join('\n\n') + '\n';
  const pkg = {
    name: `repro-${dirName(t)}`.toLowerCase().replace(/[^a-z0-9._-]+/g, '-'),
    private: true,
    type: 'module',
    description: `${t.framework} ${t.version}: ${scenario.shows}`,
    scripts: { start: 'node repro.mjs' },
    dependencies: framework.dependencies(t.version),
  };
  const failing = cells.filter(
    (c) => c.framework === t.framework && c.version === t.version && c.wiring === t.wiring && c.scenario === t.scenario && (!scenario.byStore || c.store === (t.store ?? 'memory')) && c.verdict === 'fail' && shows(c, cells),
  );
  const actual = app.actual ?? (typeof scenario.actual === 'function' ? scenario.actual(t.store ?? 'memory') : scenario.actual);
  const readme = [
    `# ${t.framework} ${t.version}: ${scenario.shows}`,
    '',
    `The \`${t.wiring}\` wiring of ${t.framework} ${t.version}, as its docs write it, with a scripted model and a counting backend, and nothing of approval-conformance.`,
    '',
    '```sh',
    'npm install && node repro.mjs',
    '```',
    '',
    ...(app.readme ? [app.readme, ''] : []),
    `Expected, from a runtime that keeps the approval: ${scenario.expected}`,
    '',
    `Actual, on ${t.framework} ${t.version}: ${actual} The script exits 1.`,
    ...storiesOf(failing, scenario.property, stories),
    '',
  ].join('\n');
  return {
    kind: 'repro',
    files: { 'package.json': `${JSON.stringify(pkg, null, 2)}\n`, 'repro.mjs': script, 'README.md': readme },
    lines: script.split('\n').length - 1,
  };
}

/**
 * Whether a scenario's script shows a failing cell: its property is one the script watches (two transfers, a transfer
 * no one approved, ...), or another of the scenario's that fails with the one it watches (no-resurrection and
 * fresh-view fail with at-most-once under two resumes) on the same wiring and store.
 */
function shows(cell: ResultCell, cells: readonly ResultCell[]): boolean {
  const scenario = scenarioRepro(cell.scenario);
  if (!scenario || scenario.property === cell.property || scenario.alsoShows?.includes(cell.property)) return true;
  if (!scenario.withKey?.includes(cell.property)) return false;
  const key = cells.find((c) => c.framework === cell.framework && c.version === cell.version && c.wiring === cell.wiring && c.store === cell.store && c.scenario === cell.scenario && c.property === scenario.property);
  return key?.verdict === 'fail';
}

/** The reproduction for one cell of a results file: nothing for a cell that did not fail. */
export function reproFor(cell: ResultCell, frameworks: readonly FrameworkRepro[], cells: readonly ResultCell[], stories?: StoryLink): ReproPlan {
  if (cell.verdict !== 'fail') {
    return { kind: 'nothing', why: `${cell.id} is ${cell.verdict}: there is no failure to reproduce.` };
  }
  // A script shows its scenario's key property (two transfers, a transfer no one approved, ...). Another property of
  // the scenario is shown with it only where the key one fails too on the same wiring and store.
  if (!shows(cell, cells)) {
    const { property, alsoShows = [] } = scenarioRepro(cell.scenario)!;
    return {
      kind: 'cannot',
      why: `the ${cell.scenario} script shows ${[property, ...alsoShows].join(' and ')} failing, not ${cell.property}, which fails at the framework's own steps (what its record says while the transfer runs), which the script does not watch. Replay it in the suite: approval-conformance replay RESULTS --cell ID.`,
    };
  }
  return reproFiles(cell, frameworks, cells, stories);
}

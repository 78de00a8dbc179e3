// Writes the reports of a run into a folder: the index, a page per framework and the stories per version, each in
// Markdown and in HTML.
// (results.json is the journal's, written as the run goes.)
import { readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { writableFolder } from '../destination.js';
import type { Scenario } from '@approval-conformance/core';
import type { ResultsFile } from '../results.js';
import type { TriageEntry } from '../triage.js';
import { UsageError } from '../usage-error.js';
import { frameworkRepros, reproDir, reproFor } from '../repro/index.js';
import { urlPart } from './escape.js';
import { storyPath } from './story-text.js';
import { frameworkHtml, htmlStoriesFile, indexHtml, storiesHtml } from './html.js';
import { companionRuns, targetsOf } from './companions.js';
import { answerFailures } from './index-page.js';
import { contentsSentence, runFlags } from './run-options.js';
import { frameworkPage, indexPage, storiesFile, storiesPage, type ReportInput } from './markdown.js';

/**
 * The reports of a results file read back (`report`, `merge`): its targets (or, for a version 1 file, those its cells
 * name), the versions it planned, and its environment.
 */
export function writeResultsReports(
  dir: string,
  results: ResultsFile,
  scenarios: readonly Scenario[],
  resultsName: string,
  triage: readonly TriageEntry[] = [],
): Promise<string[]> {
  const targets = targetsOf(results);
  return writeReports(
    dir,
    {
      targets,
      cells: results.cells,
      scenarios,
      ...(results.planned ? { planned: results.planned } : {}),
      ...(results.complete ? { complete: true } : {}),
      ...(results.options ? { options: results.options } : {}),
      triage,
    },
    {
      ...(results.environment ? { environment: results.environment } : {}),
      ...(results.updated ? { updated: results.updated } : {}),
      resultsName,
    },
  );
}

/** The folders under a reports folder that its pages go into. */
const SUBFOLDERS = ['stories', 'html', 'repro'] as const;

/**
 * A reports folder, checked before a run or a report writes anything into it: it is (or can be made) a folder one
 * can write in, and the folders the pages go into are folders where they exist. The error names the folder given.
 */
export async function reportsFolder(dir: string, option = '--out'): Promise<string> {
  const full = await writableFolder(dir, `${option} ${dir}`);
  for (const sub of SUBFOLDERS) {
    const found = await stat(join(full, sub)).catch(() => undefined);
    if (found && !found.isDirectory()) {
      throw new UsageError(`${option} ${dir}: ${join(full, sub)} is a file, where the reports put a folder. Move it, or choose another folder; nothing was written.`);
    }
    if (found) await writableFolder(join(full, sub), `${option} ${dir} (its ${sub} folder)`);
  }
  return full;
}

/**
 * Writes every page beside its target (NAME.partial-PID) and renames them into place once all are written, so that a
 * failure part way (a full disk, a folder that cannot be made) leaves the reports as they were, not half replaced.
 */
async function writeAll(pages: readonly (readonly [string, string])[], option: string, dir: string): Promise<string[]> {
  const partial = (file: string) => `${file}.partial-${process.pid}`;
  const written: string[] = [];
  const folders = new Set<string>();
  try {
    for (const [file, text] of pages) {
      if (!folders.has(dirname(file))) folders.add(await writableFolder(dirname(file), `${option} ${dir} (${relative(dir, dirname(file)) || 'the folder'})`));
      await writeFile(partial(file), text);
      written.push(file);
    }
  } catch (error) {
    await Promise.all(written.map((file) => rm(partial(file), { force: true })));
    const code = (error as NodeJS.ErrnoException)?.code ?? String(error);
    throw new UsageError(`cannot write the reports into ${option} ${dir} (${code}); nothing was replaced. Choose a folder you can write to.`);
  }
  for (const file of written) await rename(partial(file), file);
  return written;
}

/**
 * `dir/name`, checked to stay inside `dir`. Names come from a results file, which is validated when read, so this
 * never fires on one; it is the second lock on the same door.
 */
function inside(dir: string, name: string): string {
  const file = resolve(dir, name);
  const rel = relative(resolve(dir), file);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new UsageError(`refusing to write '${name}': it would land outside ${dir}. The results file names something that is not a plain name.`);
  }
  return file;
}

export interface ReportMeta {
  readonly environment?: { suite: string; node: string; os: string; arch: string; cpus: number };
  readonly updated?: string;
  /** The results file the reports link to, relative to the reports' folder. */
  readonly resultsName?: string;
}

export async function writeReports(dir: string, given: ReportInput, meta: ReportMeta = {}): Promise<string[]> {
  const data = meta.resultsName ?? 'results.json';
  // The runs published beside this one (reports/<framework>/ beside the default matrix): read before anything
  // is written, and never a reason not to write (a file that cannot be read is said in the index).
  const companions = given.companions ?? (await companionRuns(dir, given, resolve(dir, data)));
  const input: ReportInput = { ...given, dir: resolve(dir), companions };
  const env = meta.environment;
  // Versions whose main package declares a Node range the run's Node is outside of (they ran on it all the same).
  const outside = input.targets.flatMap((t) =>
    Object.entries(t.nodeEngines ?? {}).map(([name, range]) => `${t.framework}@${t.version} (${name} declares node ${range})`),
  );
  const engines = outside.length > 0 ? ` Ran on this Node although its declared range leaves it out: ${outside.join(', ')}.` : '';
  const environment = env
    ? `Suite ${env.suite}, Node ${env.node}, ${env.os} (${env.arch}, ${env.cpus} cores)${meta.updated ? `, last cell written ${meta.updated}` : ''}.${engines} Raw data: [${data}](${data}).`
    : `Raw data: [${data}](${data}).`;
  const flags = input.options ? runFlags(input.options) : undefined;
  const contents = contentsSentence(input.options);
  const plain = environment.replace(`[${data}](${data})`, data) + (flags ? ` Run with: ${flags}.` : '') + ` ${contents}`;
  const markdown = environment + (flags ? ` Run with \`${flags}\`.` : '') + ` ${contents}`;
  // Every path is checked before the first file is written, so a bad name never leaves half a report.
  const pages: [string, () => string][] = [
    [inside(dir, 'README.md'), () => indexPage(input, markdown)],
    [inside(dir, 'index.html'), () => indexHtml(input, plain)],
  ];
  for (const framework of [...new Set(input.targets.map((t) => t.framework))]) {
    pages.push([inside(dir, `${framework}.md`), () => frameworkPage(framework, input)]);
    pages.push([inside(dir, `${framework}.html`), () => frameworkHtml(framework, input)]);
  }
  for (const target of input.targets) {
    if (input.cells.some((c) => c.framework === target.framework && c.version === target.version && c.counterexample)) {
      pages.push([inside(dir, storiesFile(target.framework, target.version)), () => storiesPage(target, input.cells, resolve(dir))]);
      pages.push([inside(dir, htmlStoriesFile(target.framework, target.version)), () => storiesHtml(target, input.cells, resolve(dir))]);
    }
  }
  pages.push(...reproPages(input).map(([name, text]): [string, () => string] => [inside(dir, name), () => text]));
  const written = await writeAll(pages.map(([file, text]) => [file, text()] as const), '--out', dir);
  await pruneStories(dir, input, written);
  await pruneRepros(dir, input, written);
  return written;
}

/**
 * The standalone reproductions of the one-minute answer's failures (`repro/NAME/`), and `repro/README.md`: each
 * reproduction with its length and the cells it stands for, then the failures that have none, with the reason.
 */
function reproPages(input: ReportInput): [string, string][] {
  const failures = answerFailures(input).filter((c) => !c.version.endsWith('+local'));
  if (failures.length === 0) return [];
  const pages: [string, string][] = [];
  const made = new Map<string, { lines: number; cells: string[] }>();
  const without: string[] = [];
  for (const cell of failures) {
    // Its README links each cell's story, in reports/stories/ beside reports/repro/NAME/.
    const plan = reproFor(cell, frameworkRepros(), input.cells, (c) => `../../${storyPath(c)}`);
    if (plan.kind !== 'repro') {
      without.push(`- \`${cell.id}\`: ${plan.why.replace(/ Replay .*$/, '')}`);
      continue;
    }
    const name = reproDir(cell);
    const entry = made.get(name);
    if (entry) {
      entry.cells.push(cell.id);
      continue;
    }
    made.set(name, { lines: plan.lines, cells: [cell.id] });
    for (const [file, text] of Object.entries(plan.files)) pages.push([`repro/${name}/${file}`, text]);
  }
  const index = [
    '# Standalone reproductions',
    '',
    'Generated by `approval-conformance report` from the failures of the one-minute answer; do not edit by hand. Each folder pins the',
    "framework at the version that failed, with nothing of this suite, and shows the bug with the framework's documented pattern alone:",
    '',
    '```sh',
    'cd FOLDER && npm install && node repro.mjs   # prints what happened; exits 1 when the bug shows',
    '```',
    '',
    '| reproduction | repro.mjs | the cells it reproduces |',
    '|---|---|---|',
    ...[...made].map(([name, m]) => `| [${name}](${urlPart(name)}/README.md) | ${m.lines} lines | ${m.cells.map((c) => `\`${c}\``).join('<br>')} |`),
    ...(without.length > 0
      ? ['', '## Failures without a standalone reproduction', '', 'Each replays in the suite (`approval-conformance replay RESULTS --cell ID`).', '', ...without]
      : []),
    '',
  ].join('\n');
  return [['repro/README.md', index], ...pages];
}

/** Reproduction folders of these results' frameworks that this report did not write: an earlier run's. */
async function pruneRepros(dir: string, input: ReportInput, written: readonly string[]): Promise<void> {
  const frameworks = new Set(input.targets.map((t) => t.framework));
  const kept = new Set(written.map((file) => resolve(file, '..')));
  const names = await readdir(join(dir, 'repro')).catch(() => [] as string[]);
  for (const name of names) {
    const at = name.indexOf('@');
    if (at <= 0 || !frameworks.has(name.slice(0, at))) continue;
    const folder = resolve(dir, 'repro', name);
    if (!kept.has(folder)) await rm(folder, { recursive: true, force: true });
  }
}

/**
 * The stories pages of a framework's versions these results no longer hold (a version left out of the default
 * matrix, a release replaced by a newer one): written by an earlier run into the same folder, they would outlive the
 * results they came from. Only `NAME@VERSION` pages of the frameworks in these results are touched.
 */
async function pruneStories(dir: string, input: ReportInput, written: readonly string[]): Promise<void> {
  const frameworks = new Set(input.targets.map((t) => t.framework));
  const kept = new Set(written.map((file) => resolve(file)));
  for (const [folder, extension] of [['stories', '.md'], ['html', '.html']] as const) {
    const names = await readdir(join(dir, folder)).catch(() => [] as string[]);
    for (const name of names) {
      const at = name.lastIndexOf('@');
      if (at <= 0 || !name.endsWith(extension) || !frameworks.has(name.slice(0, at))) continue;
      const file = resolve(dir, folder, name);
      if (!kept.has(file)) await rm(file, { force: true });
    }
  }
}

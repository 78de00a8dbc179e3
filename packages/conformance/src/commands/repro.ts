// `repro`: a standalone reproduction of one failing cell, a folder a maintainer can paste into an issue: the
// framework pinned at the cell's version, one plain script, a README. It runs without this suite, so what it shows
// cannot be an artifact of the suite's scheduler.
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { writableFolder } from '../destination.js';
import { invokedAs } from '../invoked-as.js';
import { parseCommandArgs, resultsFileArg } from '../args.js';
import { EXIT, exitCodesHelp } from '../exit-codes.js';
import { cellOf, readResults, type ResultCell, type ResultTarget } from '../results.js';
import { frameworkRepros, reproFor, type ReproFiles } from '../repro/index.js';
import { needsAdapter } from '../frameworks.js';
import { UsageError } from '../usage-error.js';
import type { Command } from './command.js';

const HELP = `Usage: approval-conformance repro FILE --cell ID [--out DIR]

Writes a standalone reproduction of one failing cell of a results file: DIR
holds a package.json that pins the framework at the cell's version (nothing of
this suite), repro.mjs (the framework's documented pattern, a scripted model, a
counting backend, and the least interleaving control the schedule needs) and a
README with the expected and the actual output. Run it with:

  cd DIR && npm install && node repro.mjs

It prints what happened and exits 1 when the bug shows. Without --out, prints
the script. A local build's cell (\`+local\`, from --framework NAME@file:PATH)
gets a package.json that installs the framework from that folder. The
reports link each failure of their one-minute answer to its reproduction, in
reports/repro/.

Options:
  --cell ID   the cell's id (see 'approval-conformance replay FILE')
  --out DIR   the folder to write (created; it must be empty or absent)
  -h, --help  show this help

Examples:
  approval-conformance repro reports/results.json \\
    --cell ai@5.0.277/cookbook-hitl/memory/double-resume/at-most-once --out /tmp/repro

A cell that did not fail has nothing to reproduce: that is a usage error (2).

${exitCodesHelp('never', "the cell failed, but no standalone script forces its schedule yet (the\n     message says why; replay it in the suite with 'approval-conformance replay')")}`;

/** Writes the files into a new folder beside DIR, then renames it into place: no half-written reproduction. */
export async function writeRepro(dir: string, files: ReproFiles): Promise<void> {
  const existing = await stat(dir).catch(() => undefined);
  if (existing && !existing.isDirectory()) throw new UsageError(`--out ${dir} is a file; name a folder to create.`);
  if (existing) {
    if ((await readdir(dir)).length > 0) throw new UsageError(`--out ${dir} is not empty; name a new folder, or empty it first.`);
  }
  const full = resolve(dir);
  await writableFolder(dirname(full), `--out ${dir}`);
  const staging = `${full}.partial-${process.pid}`;
  try {
    await mkdir(staging);
    for (const [name, text] of Object.entries(files)) await writeFile(join(staging, name), text);
    if (existing) await rm(full, { recursive: true });
    await rename(staging, full);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code) throw new UsageError(`cannot write the reproduction to ${dir} (${code}); name a folder you can write.`);
    throw error;
  }
}

/** Where a local build's cell ran from (its target's `file:` folder), which must still be there. */
function localSource(cell: ResultCell, targets: readonly ResultTarget[]): { dir: string; packageName: string } {
  const source = targets.find((t) => t.framework === cell.framework && t.version === cell.version)?.source;
  const packageName = frameworkRepros().find((f) => f.framework === cell.framework)?.packageName;
  if (!source) {
    throw new UsageError(`${cell.id} ran on a local build, and the results do not say where it was; run it again with --framework ${cell.framework}@file:PATH, then repro that cell.`);
  }
  if (!packageName) throw new UsageError(`no standalone app is written for ${cell.framework} yet; replay the cell in the suite.`);
  if (!existsSync(join(source, 'package.json'))) {
    throw new UsageError(`${cell.id} ran on the local build in ${source}, which is no longer there; build it again there, or run the branch again with --framework ${cell.framework}@file:PATH.`);
  }
  return { dir: source, packageName };
}

/**
 * A reproduction of a local build's cell: its package.json installs the framework from the build's folder (a
 * `file:` dependency) in place of the published version, and its README says so.
 */
function againstLocalBuild(files: ReproFiles, cell: ResultCell, local: { dir: string; packageName: string }): ReproFiles {
  const pkg = JSON.parse(files['package.json']) as { dependencies: Record<string, string>; description?: string };
  pkg.dependencies[local.packageName] = `file:${local.dir}`;
  const note = [
    '',
    `This cell ran on a local build of ${local.packageName} (${cell.version}): package.json installs it from \`${local.dir}\` (a \`file:\` dependency), so \`npm install\` takes the build as it is there now. To share the reproduction, publish or pack the build and point package.json at that.`,
    '',
  ].join('\n');
  const [title, ...rest] = files['README.md'].split('\n');
  return { ...files, 'package.json': `${JSON.stringify(pkg, null, 2)}\n`, 'README.md': [title, note, ...rest].join('\n') };
}

export const reproCommand: Command = {
  name: 'repro',
  summary: 'write a standalone reproduction of one failing cell',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('repro', argv, {
      cell: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.out(HELP);
      return EXIT.done;
    }
    const file = resultsFileArg('repro', positionals);
    const results = await readResults(file);
    const cell = cellOf(results, file, values.cell);
    // Its app comes from its adapter: one recorded but not given is said, not taken for "no app written".
    needsAdapter(cell.framework, results.targets ?? []);
    const local = cell.version.endsWith('+local') ? localSource(cell, results.targets ?? []) : undefined;
    const found = reproFor(cell, frameworkRepros(), results.cells);
    const plan = local && found.kind === 'repro' ? { ...found, files: againstLocalBuild(found.files, cell, local) } : found;
    if (plan.kind === 'nothing') throw new UsageError(plan.why);
    if (plan.kind === 'cannot') {
      io.err(`approval-conformance: no standalone reproduction of ${cell.id}: ${plan.why.replace('approval-conformance replay RESULTS', `${invokedAs()} replay ${file}`).replace('--cell ID', `--cell ${cell.id}`)}\n`);
      return EXIT.incomplete;
    }
    if (values.out === undefined) {
      io.out(plan.files['repro.mjs']);
      return EXIT.done;
    }
    await writeRepro(values.out, plan.files);
    io.err(`wrote ${values.out} (repro.mjs: ${plan.lines} lines). Run it with: cd ${values.out} && npm install && node repro.mjs\n`);
    return EXIT.done;
  },
};

// `init-adapter`: a new adapter package for a third party's framework, outside the suite's repository, from the
// templates in templates/adapter: a toy framework with an approval pause and the classic double-resume bug, its
// adapter (the docs' pattern, which the suite catches, and a guarded wiring, which passes), its descriptor, a test
// and a README saying what to replace. The suite runs it with `--adapter DIR --framework NAME` once it is built.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { CONTRACT_VERSION } from '@approval-conformance/core';
import { parseCommandArgs } from '../args.js';
import { exitCodesHelp, EXIT } from '../exit-codes.js';
import { invokedAs } from '../invoked-as.js';
import { UsageError } from '../usage-error.js';
import { frameworks, isExternal } from '../registry.js';
import type { Command } from './command.js';

/** `text` in lines of at most `width` characters, broken at spaces. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** The frameworks the suite has built in: a new adapter may not take their names. */
export const builtInNames = (): string[] => frameworks().filter((f) => !isExternal(f)).map((f) => f.name);

/** A framework's name, as `--framework` takes it and a descriptor must have it. */
const NAME = /^[a-z][a-z0-9-]*$/;

/** The package folder (the same from src/commands/ and from dist/commands/), and the templates in it. */
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TEMPLATES = join(PACKAGE_ROOT, 'templates', 'adapter');

/**
 * Template files stored under another name than the one they are written as, so that nothing in the suite's own
 * repository or tarball takes them for what they become: npm's pack reads a `.gitignore` in a subfolder as ignore
 * rules, a package.json in a subfolder is a package to editors and tools, and the pack check refuses a tarball that
 * holds a test file (scripts/pack-smoke.sh).
 */
const STORED_AS: Readonly<Record<string, string>> = {
  '.gitignore': 'gitignore',
  'package.json': 'package.json.template',
  'src/adapter.test.ts': 'src/adapter.test-template.ts',
};

/** What each file written is, as the command lists them. Every template has a line (init-adapter.test.ts). */
export const WRITTEN: Readonly<Record<string, string>> = {
  'package.json': 'the package: its ., ./descriptor and ./runtime entries, build (tsc) and test (vitest) scripts',
  'tsconfig.json': 'the build, src/ into dist/, with the explorer mapped to an empty module',
  'tsconfig.typecheck.json': 'npm run typecheck: the source and the tests',
  'explorer-not-for-adapters.d.ts': "that empty module: the adapter imports only core's /contract and /kit",
  '.gitignore': 'node_modules, dist',
  'README.md': 'what each file is, how to run it, what to replace for a real framework',
  'src/runtime.ts': 'a toy framework with an approval pause and the double-resume bug: yours replaces it',
  'src/world.ts': "a world: the toy's agent, its store calls gated, the suite's fakes as model and tools",
  'src/wirings.ts': "the docs' pattern (resume) and the guarded one (guarded-resume)",
  'src/adapter.ts': 'the adapter: wirings, stores, applicability, createWorld',
  'src/descriptor.ts': 'what the suite loads: name, versions, load (and what to change for npm)',
  'src/repro.ts': "the docs' pattern as a standalone script's app, for `approval-conformance repro`",
  'src/index.ts': 'the main entry',
  'src/adapter.test.ts': "the explorer on double-resume: the docs' pattern fails, the guarded one passes",
};

const defaultDir = (name: string) => `approval-conformance-adapter-${name}`;

const HELP = `Usage: approval-conformance init-adapter NAME [DIR]

Writes a new adapter package for a framework named NAME into DIR, a new or
empty folder outside the suite's repository (default:
./${defaultDir('NAME')}). It works as written, over a toy
framework whose documented resume has the classic bug (two resumes of one
approval both run the tool), with two wirings: the docs' pattern, which the
suite catches, and the approval guard's, which passes. Its README says what
to replace to drive a real framework.

The files: package.json (${defaultDir('NAME')}, with a
./descriptor entry), tsconfig.json, README.md, and in src/ the toy framework
(runtime.ts), the world and adapter over it (world.ts, wirings.ts, adapter.ts),
the descriptor the suite loads (descriptor.ts), the app of a standalone
reproduction (repro.ts) and a vitest test that runs the suite's explorer on
both wirings (adapter.test.ts).

Arguments:
  NAME  the framework's name, as --framework takes it: lowercase letters,
        digits and dashes, starting with a letter; not a built-in framework's
        (${wrap(builtInNames().join(', '), 66).join('\n        ')})
  DIR   where to write it (default: ${defaultDir('NAME')}
        in this folder)

Options:
  -h, --help  show this help

Then, in DIR (the command prints these with the paths filled in):
  1. install its dependencies: the suite's packages are not on the npm registry
     yet, so core and guard come from tarballs ('pnpm release:pack' in a clone
     of the suite writes them to dist-tarballs/; the README's Install section)
  2. npm run build, and npm test
  3. approval-conformance run --adapter DIR --framework NAME  (the suite loads
     DIR/dist: build it first, and again after each change)

Examples:
  approval-conformance init-adapter acme-agents
  approval-conformance init-adapter acme-agents ../acme-adapter

${exitCodesHelp('never')}`;

export const initAdapterCommand: Command = {
  name: 'init-adapter',
  summary: 'write a new adapter package for your framework (a working toy to start from)',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('init-adapter', argv, {
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.out(HELP);
      return EXIT.done;
    }
    const [name, dirArg, ...extra] = positionals;
    if (name === undefined) throw new UsageError(`init-adapter needs the framework's NAME; see 'approval-conformance init-adapter --help'.`);
    if (extra.length > 0) throw new UsageError(`init-adapter takes NAME and DIR, got also '${extra[0]}'.`);
    checkName(name);
    const dir = resolve(dirArg ?? defaultDir(name));
    const shown = dirArg ?? defaultDir(name);
    checkOutsideSuite(dir, shown, name);
    await checkEmpty(dir, shown);

    const suiteVersion = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    // Core and guard at their own versions, as this CLI has them: a release may move one and not the other.
    const versions = { core: packageVersion('@approval-conformance/core'), guard: packageVersion('@approval-conformance/guard') };
    const substitutions = {
      __NAME__: name,
      __SUITE_VERSION__: suiteVersion,
      __CORE_VERSION__: versions.core,
      __GUARD_VERSION__: versions.guard,
      __CONTRACT_VERSION__: String(CONTRACT_VERSION),
    };
    const files = await templateFiles();
    await mkdir(dir, { recursive: true });
    for (const { stored, written } of files) {
      const text = (await readFile(join(TEMPLATES, stored), 'utf8')).replace(/__(NAME|SUITE_VERSION|CORE_VERSION|GUARD_VERSION|CONTRACT_VERSION)__/g, (p) => substitutions[p as keyof typeof substitutions]);
      await mkdir(dirname(join(dir, written)), { recursive: true });
      // `wx`: never over a file, should one appear while this runs.
      await writeFile(join(dir, written), text, { flag: 'wx' });
    }

    const width = Math.max(...files.map((f) => f.written.length));
    const lines = [
      `Wrote the ${name} adapter into ${dir} (${files.length} files):`,
      ...files.map((f) => `  ${f.written.padEnd(width)}  ${WRITTEN[f.written] ?? ''}`.trimEnd()),
      '',
      'Next:',
      `  cd ${quote(shown)}`,
      ...installSteps(versions),
      '  npm run build        # dist/, which the suite loads: build again after each change',
      "  npm test             # the explorer on double-resume: the docs' pattern fails, the guarded wiring passes",
      `  ${cliInDir()} run --adapter ${quote(dir)} --framework ${name}`,
      '',
      `Then replace the toy (src/runtime.ts) with ${name} itself: ${join(shown, 'README.md')} says how.`,
    ];
    io.out(`${lines.join('\n')}\n`);
    return EXIT.done;
  },
};

function checkName(name: string): void {
  if (!NAME.test(name)) {
    throw new UsageError(`init-adapter: '${name}' is not a framework name: use lowercase letters, digits and dashes, starting with a letter (acme-agents).`);
  }
  if (builtInNames().includes(name)) {
    throw new UsageError(`init-adapter: '${name}' is a built-in framework's name (${builtInNames().join(', ')}); choose another, such as ${name}-fork.`);
  }
}

/** The CLI as the steps, which run in DIR, call it: a clone's `pnpm conformance` with the clone's folder. */
function cliInDir(): string {
  const how = invokedAs();
  const clone = suiteClone();
  return how.startsWith('pnpm ') && clone !== undefined ? `pnpm --dir ${quote(clone)} ${how.slice('pnpm '.length)}` : how;
}

/** The suite's clone this CLI runs from, if it runs from one (not from an install). */
function suiteClone(): string | undefined {
  const root = resolve(PACKAGE_ROOT, '..', '..');
  try {
    if (!existsSync(join(root, 'pnpm-workspace.yaml'))) return undefined;
    return realpathSync(join(root, 'packages', 'conformance')) === realpathSync(PACKAGE_ROOT) ? root : undefined;
  } catch {
    return undefined;
  }
}

/** The adapter is a package of its own: inside the suite's clone, the workspace's modules and git would be its. */
function checkOutsideSuite(dir: string, shown: string, name: string): void {
  const clone = suiteClone();
  if (clone === undefined) return;
  // The nearest folder of DIR that exists, as the file system has it (a link into the clone is inside it).
  let existing = dir;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  const fromClone = relative(realpathSync(clone), join(realpathSync(existing), relative(existing, dir)));
  if (fromClone === '' || (fromClone !== '..' && !fromClone.startsWith(`..${sep}`) && !isAbsolute(fromClone))) {
    const suggestion = join(relative(process.cwd(), dirname(clone)) || '.', defaultDir(name));
    throw new UsageError(
      `init-adapter: '${shown}' is inside the suite's own repository (${clone}); an adapter is a package of its own: give a DIR outside it, such as ${suggestion}.`,
    );
  }
}

async function checkEmpty(dir: string, shown: string): Promise<void> {
  let info;
  try {
    info = await stat(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!info.isDirectory()) throw new UsageError(`init-adapter: '${shown}' is a file; give a new or empty folder.`);
  const entries = await readdir(dir);
  if (entries.length > 0) {
    throw new UsageError(`init-adapter: '${shown}' is not empty (it holds ${entries.length === 1 ? `'${entries[0]}'` : `${entries.length} entries`}); give a new or empty folder, nothing was written.`);
  }
}

/** Every template, by the path it is stored at and the one it is written to, in the order the command lists them. */
async function templateFiles(): Promise<{ stored: string; written: string }[]> {
  const writtenAs = new Map(Object.entries(STORED_AS).map(([written, stored]) => [stored, written]));
  const stored: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(join(TEMPLATES, folder), { withFileTypes: true })) {
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) stored.push(path);
    }
  };
  await walk('');
  const order = Object.keys(WRITTEN);
  const rank = (written: string) => (order.includes(written) ? order.indexOf(written) : order.length);
  return stored
    .map((s) => ({ stored: s, written: writtenAs.get(s) ?? s }))
    .sort((a, b) => rank(a.written) - rank(b.written) || a.written.localeCompare(b.written));
}

/**
 * How to install the dependencies. Until the suite's packages are on the registry, core and guard come from the
 * tarballs `pnpm release:pack` writes into a clone's dist-tarballs/: that folder's, when this CLI runs from a clone.
 */
function installSteps(versions: { readonly core: string; readonly guard: string }): string[] {
  const clone = suiteClone();
  const tarballs = clone === undefined ? '/PATH/TO/approval-conformance/dist-tarballs' : join(clone, 'dist-tarballs');
  const file = (pkg: 'core' | 'guard') => join(tarballs, `approval-conformance-${pkg}-${versions[pkg]}.tgz`);
  const tgz = (pkg: 'core' | 'guard') => quote(file(pkg));
  const packed = clone !== undefined && (['core', 'guard'] as const).every((pkg) => existsSync(file(pkg)));
  const header = "  # the suite's packages are not on the npm registry yet:";
  const make =
    clone === undefined
      ? [`${header} core and guard from their tarballs, which`, "  # 'pnpm release:pack' writes to dist-tarballs/ in a clone of the suite (its README, Install)"]
      : packed
        ? [`${header} core and guard from their tarballs`, `  # (from 'pnpm release:pack' in ${quote(clone)}: run it again after changing the suite)`]
        : [`${header} make their tarballs, and install core and guard`, `  (cd ${quote(clone)} && pnpm release:pack)`];
  return [...make, `  npm install --no-save ${tgz('core')} \\`, `    ${tgz('guard')}`];
}

/** The version of a package this CLI loads: from the package.json above its main entry. */
function packageVersion(name: string): string {
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
      if (pkg.name === name) return pkg.version;
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json of ${name} above its entry`);
    dir = up;
  }
}

/** A path as a shell word: as it is when it needs no quotes. */
function quote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

// The install commands the READMEs give work as written: each script they run is the root package.json's or a file
// in scripts/, the folder of tarballs is the one the pack script writes, each tarball they name is one it packs, it
// packs every package that is published (one tarball alone does not install), and the clone, pnpm and the release
// check they name are the repository's. The commands themselves are run by scripts/pack-smoke.sh and release-check.sh.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const manifest = (path: string) => JSON.parse(read(path)) as Record<string, any>;
const rootManifest = manifest('package.json');
const pack = read('scripts/pack.sh');

/** The `## Install` section of a README: its text and the lines of its sh code blocks. */
function install(file: string): { text: string; commands: string[] } {
  const text = /^## Install\n([\s\S]*?)(?=^## )/m.exec(read(file))?.[1] ?? '';
  const commands = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n')).map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean);
  return { text, commands };
}

/** The packages scripts/pack.sh packs, as folders. */
const packed = /^PACKAGES=\(([^)]*)\)/m.exec(pack)![1]!.trim().split(/\s+/);
/** The tarball `pnpm pack` makes of a package folder: `@approval-conformance/guard` 0.0.0 → approval-conformance-guard-0.0.0.tgz. */
const tarball = (dir: string) => {
  const { name, version } = manifest(`${dir}/package.json`);
  return `${String(name).replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
};
const defaultOut = /^\s*out=(\S+)$/m.exec(pack)![1]!;

const READMES = ['README.md', 'packages/conformance/README.md', 'packages/guard/README.md'];

describe('the install commands', () => {
  it('pack every published package of the workspace (what installs together)', () => {
    const published = ['packages', 'packages/adapters']
      .flatMap((dir) => readdirSync(join(root, dir), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `${dir}/${e.name}`))
      .filter((dir) => existsSync(join(root, dir, 'package.json')) && !manifest(`${dir}/package.json`)['private']);
    expect([...packed].sort()).toEqual(published.sort());
    expect(rootManifest['scripts']['release:pack']).toBe('bash scripts/pack.sh');
    // pack-smoke packs with the same list and function, not a copy of them.
    expect(read('scripts/pack-smoke.sh')).toMatch(/^\. scripts\/pack\.sh$/m);
    expect(read('scripts/pack-smoke.sh')).not.toMatch(/^PACKAGES=/m);
  });

  it.each(READMES)('in %s name scripts, files, tarballs and versions that exist', (file) => {
    const { text, commands } = install(file);
    expect(commands.length, `${file} has an Install section with commands`).toBeGreaterThan(0);
    for (const command of commands.flatMap((c) => c.split(/\s*&&\s*/))) {
      const words = command.split(/\s+/);
      // pnpm SCRIPT: a script of the root package.json (pnpm's own commands aside).
      if (words[0] === 'pnpm' && !['install', 'exec', 'dlx', 'add'].includes(words[1]!)) {
        const script = words[1] === '--silent' ? words[2]! : words[1]!;
        expect(rootManifest['scripts'], `${file}: ${command}`).toHaveProperty([script]);
      }
      // npm i -g pnpm@V: the version the workspace pins.
      const pnpm = /^npm i(?:nstall)? -g (pnpm@\S+)$/.exec(command)?.[1];
      if (pnpm) expect(pnpm, `${file}: ${command}`).toBe(rootManifest['packageManager']);
      // git clone URL: the repository the packages name.
      if (words[0] === 'git' && words[1] === 'clone') expect(`git+${words[2]}`, `${file}: ${command}`).toBe(manifest('packages/conformance/package.json')['repository'].url);
      // A tarball: in the folder the pack script writes, and one it packs (by name; the version is the release's).
      for (const path of words.filter((w) => w.endsWith('.tgz'))) {
        expect(path, `${file}: ${command}`).toMatch(new RegExp(`(^|/)${defaultOut}/[^/]+$`));
        const name = path.split('/').at(-1)!;
        if (name !== '*.tgz') {
          const pattern = new RegExp(`^${name.replace(/[.]/g, '\\.').replace(/\*/g, '[^/]*')}$`);
          expect(packed.map(tarball).filter((t) => pattern.test(t)), `${file}: ${name} is one tarball the pack script makes`).toHaveLength(1);
        }
      }
    }
    // Each script file the section names is there.
    for (const [, script] of text.matchAll(/\b(scripts\/[\w.-]+)/g)) expect(existsSync(join(root, script!)), `${file}: ${script}`).toBe(true);
  });

  it('say what works the day the packages are published, and what proves it', () => {
    const { text } = install('README.md');
    expect(text).toContain('`npm install -g approval-conformance`');
    expect(text).toMatch(/`bash\s+scripts\/release-check\.sh`[\s\S]*Verdaccio/);
    expect(read('scripts/release-check.sh')).toMatch(/npm install --registry "\$registry" .*approval-conformance/);
    expect(read('.ci/run')).toContain('scripts/release-check.sh');
    for (const file of ['packages/conformance/README.md', 'packages/guard/README.md']) {
      expect(install(file).commands[0], file).toMatch(/^npm install (-g approval-conformance|@approval-conformance\/guard )/);
    }
  });
});

describe('the published manifests', () => {
  /** `exports` without the workspace's source condition, which points at src/, never in a tarball. */
  const published = (entry: unknown): unknown =>
    entry && typeof entry === 'object' ? Object.fromEntries(Object.entries(entry).filter(([k]) => k !== '@approval-conformance/source').map(([k, v]) => [k, published(v)])) : entry;

  it.each(packed)('%s publishes its exports without the source condition (a process run with it, the CLI from a clone, loads an adapter installed from tarballs)', (dir) => {
    const pkg = manifest(`${dir}/package.json`);
    expect(JSON.stringify(pkg['exports'])).toContain('@approval-conformance/source');
    expect(pkg['publishConfig']?.exports).toEqual(published(pkg['exports']));
  });
});

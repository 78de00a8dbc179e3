import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastOfEachMinor, loadedPackages } from './versions.js';

describe('loadedPackages', () => {
  it("finds a package's own manifest where its exports map ./* into a folder with a package.json of its own", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-versions-'));
    const pkg = join(dir, 'node_modules', '@scope', 'sdk');
    await mkdir(join(pkg, 'dist', 'cjs'), { recursive: true });
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'app', dependencies: { '@scope/sdk': '1.2.3' } }));
    await writeFile(join(pkg, 'package.json'), JSON.stringify({ name: '@scope/sdk', version: '1.2.3', exports: { '.': './dist/cjs/index.js', './*': './dist/cjs/*' } }));
    await writeFile(join(pkg, 'dist', 'cjs', 'package.json'), JSON.stringify({ type: 'commonjs' }));
    await writeFile(join(pkg, 'dist', 'cjs', 'index.js'), 'module.exports = {};\n');
    expect(loadedPackages(dir, ['@scope/sdk']).packages).toEqual({ '@scope/sdk': '1.2.3' });
  });
});

describe('lastOfEachMinor', () => {
  it('keeps the last stable release of each minor line', () => {
    expect(lastOfEachMinor(['1.0.0', '1.0.3', '1.1.0', '1.1.1-rc.1', '2.0.0'])).toEqual(['1.0.3', '1.1.0', '2.0.0']);
  });
});

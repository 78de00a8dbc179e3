// What an adapter imports from core: the contract and the kit, never the explorer. Each built-in adapter's build maps
// the root and the explorer to an empty module, so an import of them fails to build (ADAPTERS.md, "What an adapter
// imports"); this checks that every adapter's build says so, and that the build does refuse such an import.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const adapters = fileURLToPath(new URL('../../adapters/', import.meta.url));
const EMPTY = '../explorer-not-for-adapters.d.ts';
const names = readdirSync(adapters, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

/** The diagnostics of compiling `source` with an adapter's build options (its tsconfig.json), as a file of its own. */
async function build(adapter: string, source: string): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'ac-surface-'));
  const file = join(dir, 'imports.ts');
  await writeFile(file, source);
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
  const config = ts.getParsedCommandLineOfConfigFile(join(adapters, adapter, 'tsconfig.json'), { noEmit: true, composite: false, rootDir: dir }, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  })!;
  const program = ts.createProgram({ rootNames: [file], options: config.options });
  return ts.getPreEmitDiagnostics(program).map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}

describe('what an adapter imports from core', () => {
  it.each(names)('%s: its build maps the root and the explorer to an empty module', (adapter) => {
    const { compilerOptions } = JSON.parse(readFileSync(join(adapters, adapter, 'tsconfig.json'), 'utf8')) as { compilerOptions: { paths?: Record<string, string[]> } };
    expect(compilerOptions.paths).toEqual({ '@approval-conformance/core': [EMPTY], '@approval-conformance/core/explorer': [EMPTY] });
  });

  it("refuses an explorer import in an adapter's build", async () => {
    const errors = await build('reference', "import { exploreCell } from '@approval-conformance/core/explorer';\nimport { SCENARIOS } from '@approval-conformance/core';\nexport const x = [exploreCell, SCENARIOS];\n");
    // TS names the module as the first import of the empty file; what matters is that neither name is there.
    expect(errors).toEqual([expect.stringMatching(/^TS2305: .* has no exported member 'exploreCell'\.$/), expect.stringMatching(/^TS2305: .* has no exported member 'SCENARIOS'\.$/)]);
  });

  it('the contract and the kit hold none of the explorer, and the root holds all three', async () => {
    const [root, contract, kit, explorer] = await Promise.all([
      import('@approval-conformance/core'),
      import('@approval-conformance/core/contract'),
      import('@approval-conformance/core/kit'),
      import('@approval-conformance/core/explorer'),
    ]);
    const adapterSide = new Set([...Object.keys(contract), ...Object.keys(kit)]);
    expect(Object.keys(explorer).filter((name) => adapterSide.has(name))).toEqual([]);
    expect(Object.keys(root).sort()).toEqual([...new Set([...adapterSide, ...Object.keys(explorer)])].sort());
  });
});


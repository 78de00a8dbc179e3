// The commands the README and the example workflows under docs/ show exist, with the options they pass: the docs
// match the code.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from './main.js';

const root = new URL('../../../', import.meta.url);
const docs = [
  'README.md',
  ...readdirSync(new URL('docs/', root)).filter((f) => f.endsWith('.yml')).map((f) => `docs/${f}`),
];

/** Every `conformance COMMAND --flag ...` invocation in a file, as [command, flags]. */
function invocations(text: string): [string, string[]][] {
  const found: [string, string[]][] = [];
  const lines = text.replace(/\\\n\s*/g, ' ').split('\n');
  for (const line of lines) {
    const match = /(?:pnpm (?:--silent )?conformance|npx approval-conformance|node \S*cli\.js)((?: [^#|;&]*)?)/.exec(line);
    if (!match) continue;
    const words = match[1]!.trim().split(/\s+/).filter(Boolean);
    const command = words[0] !== undefined && !words[0].startsWith('-') ? words[0] : 'run';
    found.push([command, words.filter((w) => /^--[a-z]/.test(w)).map((w) => w.replace(/=.*$/, '').replace(/[^a-z-]+$/, ''))]);
  }
  return found;
}

describe('the docs', () => {
  it.each(docs)('%s shows only commands and options that exist', (file) => {
    const shown = invocations(readFileSync(new URL(file, root), 'utf8'));
    expect(shown.length, file).toBeGreaterThan(0);
    for (const [name, flags] of shown) {
      if (name === '--help' || name === '--version') continue;
      const command = COMMANDS.find((c) => c.name === name);
      expect(command, `${file}: no command '${name}'`).toBeDefined();
      for (const flag of flags) expect(command!.help, `${file}: ${name} has no ${flag}`).toMatch(new RegExp(`(^|[\\s\\[])${flag}\\b`, 'm'));
    }
  });
});

// A changeset naming a package the workspace does not have fails only at release (`changeset version`), in the CI's
// release lane minutes later: it is caught here, in a second.
describe('the changesets', () => {
  const names = new Set(
    ['packages', 'packages/adapters']
      .flatMap((dir) => readdirSync(new URL(`${dir}/`, root), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `${dir}/${e.name}`))
      .flatMap((dir) => {
        try {
          return [(JSON.parse(readFileSync(new URL(`${dir}/package.json`, root), 'utf8')) as { name: string }).name];
        } catch {
          return [];
        }
      }),
  );
  const changesets = readdirSync(new URL('.changeset/', root)).filter((f) => f.endsWith('.md') && f !== 'README.md');
  it.each(changesets)('%s names only packages of the workspace', (file) => {
    const front = /^---\n([\s\S]*?)\n---/.exec(readFileSync(new URL(`.changeset/${file}`, root), 'utf8'))?.[1] ?? '';
    const named = [...front.matchAll(/^["']?([^"':]+)["']?\s*:/gm)].map((m) => m[1]!);
    expect(named.length, file).toBeGreaterThan(0);
    for (const name of named) expect(names, `${file} names ${name}`).toContain(name);
  });
});

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

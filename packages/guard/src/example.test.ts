// The README's examples are the files in examples/, word for word, and they run: from the TypeScript sources (the
// package imports itself by name), in a folder of their own, printing what the README says they print. The framework
// examples run in an app folder linking the framework versions the workspace pins (LangGraph 1.x; the AI SDK 6.x and
// 7.x, the same file on both), and typecheck there against the frameworks' own types.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUARD, README, appFolder, inReadme, pinned, runExample, typecheck } from './examples.fixtures.js';

describe('the README example', () => {
  const { block, printed } = inReadme('basic.ts');

  it('is in README.md as it is in examples/basic.ts', () => {
    expect(README).toContain(block);
  });

  it('runs, and prints what the README says it prints', async () => {
    expect(printed, 'the README shows the output after "It prints:", right after the example').toBeDefined();
    // It opens approvals.db in its working folder: a fresh one.
    const cwd = await mkdtemp(join(tmpdir(), 'ac-guard-example-'));
    try {
      const result = await runExample(join(GUARD, 'examples', 'basic.ts'), cwd);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).toBe(printed);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});

/** Each framework example, and the pinned packages an app using it would install (name → the pin's folder). */
const FRAMEWORKS = [
  {
    file: 'langgraph.ts',
    on: 'LangGraph 1.x',
    links: () => ({
      '@langchain/langgraph': pinned('langgraph/pins/v1', '@langchain/langgraph', 1),
      '@langchain/core': pinned('langgraph/pins/v1', '@langchain/core', 1),
    }),
  },
  ...[6, 7].map((major) => ({
    file: 'ai-sdk.ts',
    on: `the AI SDK ${major}.x`,
    links: () => ({ ai: pinned(`ai-sdk/pins/v${major}`, 'ai', major), zod: pinned(`ai-sdk/pins/v${major}`, 'zod', 3) }),
  })),
];

describe.concurrent.each(FRAMEWORKS)('the README example examples/$file, on $on', ({ file, links }) => {
  const { block, printed } = inReadme(file);
  let app: string | undefined;
  beforeAll(async () => {
    app = await appFolder(file, links());
  });
  afterAll(async () => {
    if (app) await rm(app, { recursive: true, force: true });
  });

  it('is in README.md word for word, followed by what it prints', ({ expect }) => {
    expect(README).toContain(block);
    expect(printed, 'the README shows the output after "It prints:", right after the example').toBeDefined();
  });

  it('runs, and prints what the README says it prints', async ({ expect }) => {
    const result = await runExample(join(app!, file), app!);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(printed);
  });

  it("typechecks against the framework's own types", async ({ expect }) => {
    const result = await typecheck(app!);
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { pinnedLib, PINNED_VERSIONS } from './lib.js';

describe('pinned versions', () => {
  it.each(Object.entries(PINNED_VERSIONS))('loads @mastra/core@%s from its pin in the workspace', async (version, line) => {
    const lib = await pinnedLib(line);
    expect(lib.version).toBe(version);
    expect(typeof lib.mastra['Mastra']).toBe('function');
    expect(typeof lib.libsql['LibSQLStore']).toBe('function');
  });
});

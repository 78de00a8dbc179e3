// In the workspace the pins are installed (devDependencies), so a pinned version loads from its pin, never installs.
// (Without them, as in the published packages, it installs on demand: scripts/pack-smoke.sh runs that.)
import { describe, expect, it } from 'vitest';
import { pinnedLibIfPresent, PINNED_VERSIONS } from './lib.js';

describe('pinnedLibIfPresent', () => {
  it.each(Object.entries(PINNED_VERSIONS))('loads @openai/agents@%s from its pin in the workspace', async (version, line) => {
    const lib = await pinnedLibIfPresent(line);
    expect(lib?.version).toBe(version);
    expect(lib?.dir).toMatch(new RegExp(`pins/v${line.replace(".", "_")}/$`));
  });
});

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

await (await import('../registry.js')).useAdapters([fileURLToPath(new URL('../matrix/broken.fixtures.ts', import.meta.url))]);
const { cli } = await import('../run-io.fixtures.js');

const ARGS = ['--framework', 'flipping', '--scenario', 'double-resume', '--property', 'at-most-once', '--quiet'];

describe('approval-conformance bisect', () => {
  it('finds the first release where the verdict changes, and prints both neighbours', async () => {
    const { code, out } = await cli('bisect', ...ARGS);
    expect(code).toBe(0);
    expect(out).toMatch(/^double-resume\/at-most-once changes between flipping@1\.0\.5 and flipping@1\.0\.6 \(\d+ of 10 releases run\):/);
    expect(out).toMatch(/~ only\/memory: fail \(4 steps\) → pass \(\d+ schedules\)/);
  });

  it('says so when the ends of the range agree', async () => {
    const { out } = await cli('bisect', ...ARGS, '--range', '>=1.0.6');
    expect(out).toMatch(/flipping 1\.0\.6 and 1\.0\.9 agree on double-resume\/at-most-once: 1 pass/);
  });

  it('stops at a release that will not install, naming it, rather than call it a change', async () => {
    const { code, err } = await cli('bisect', ...ARGS, '--range', '>=1.0.3 <=1.0.4');
    expect(code).toBe(3);
    expect(err).toMatch(/bisect stopped at flipping@1\.0\.3, which could not be judged \(error: could not install flipping@1\.0\.3: it was unpublished\)/);
  });

  it.each([
    [['--framework', 'flipping'], /bisect needs --scenario/],
    [[...ARGS, '--range', 'soon'], /--range 'soon' is not a semver range/],
    [['--framework', 'reference', '--scenario', 'replay', '--property', 'binding'], /reference has only one version/],
    [['--framework', 'flipping', '--scenario', 'replay', '--property', 'disclosure'], /replay does not check disclosure/],
    [[...ARGS, '--wiring', 'nope'], /unknown wiring 'nope' for flipping; choose from only/],
  ])('refuses %j with one line', async (argv, message) => {
    const { code, err } = await cli('bisect', ...argv);
    expect(code).toBe(2);
    expect(err).toMatch(message);
  });
});

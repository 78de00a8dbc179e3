import { describe, expect, it } from 'vitest';
import { installedLib } from './install.js';

describe('installedLib', () => {
  it('refuses what is not a version, and what cannot start in-process, before asking the registry', async () => {
    await expect(installedLib('latest-ish')).rejects.toThrow(/'latest-ish' is not a version/);
    await expect(installedLib('0.0.56')).rejects.toThrow(/older than 0\.0\.64, the first that can be started in-process/);
  });
});

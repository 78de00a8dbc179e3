// The reference runtime, as the runner knows it: built in, at one version (its package's), with no npm package and
// nothing to install. The calibration subject: the essay's three switches, each wiring a setting of them.
import { readFileSync } from 'node:fs';
import { CONTRACT_VERSION, AdapterInputError, type FrameworkDescriptor } from '@approval-conformance/core/kit';

/**
 * The one version: this package's, as the adapter reports it (a release moves it; a version written down once left
 * every reference cell an error after the first `changeset version`).
 */
let version: string | undefined;
const builtIn = (): string =>
  (version ??= (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version);

export const descriptor: FrameworkDescriptor = {
  contractVersion: CONTRACT_VERSION,
  name: 'reference',
  get pinned() {
    return [builtIn()];
  },
  get oldest() {
    return builtIn();
  },
  defaults: () => [builtIn()],
  async shape() {
    const { referenceAdapter, STORES } = await import('./index.js');
    return { wirings: referenceAdapter.wirings.map((w) => w.id), stores: STORES };
  },
  async load(asked) {
    const { referenceAdapter } = await import('./index.js');
    if (asked !== referenceAdapter.version) {
      throw new AdapterInputError(`reference is only available at version ${referenceAdapter.version} (it is built in), not '${asked}'.`);
    }
    return { adapter: referenceAdapter, packages: {} };
  },
};

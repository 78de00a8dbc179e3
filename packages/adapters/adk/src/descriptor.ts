// Google ADK for TypeScript as the runner knows it: @google/adk from its first release, two versions pinned in the
// workspace and any other installed on demand.
import { CONTRACT_VERSION, loadedPackages, notPinnedHere, stable, type FrameworkDescriptor } from '@approval-conformance/core/kit';
import { adkRepro } from './repro/index.js';

const PACKAGES = ['@google/adk', '@google/genai', '@mikro-orm/core', '@mikro-orm/postgresql'];

export const descriptor: FrameworkDescriptor = {
  contractVersion: CONTRACT_VERSION,
  name: 'adk',
  npm: '@google/adk',
  pinned: ['2.0.0', '0.1.2'],
  // The first release: toolContext.requestConfirmation and the adk_request_confirmation call are in 0.1.2.
  oldest: '0.1.2',
  // The first release, both sides of the one place a verdict changes (1.6.0 to 2.0.0: requireConfirmation, the
  // response check and the pinned-arguments check arrive, and a tool's own request can no longer be answered), and
  // the newest. Every release was run (the README says what the others give): 0.1.3 to 1.6.0 give 0.1.2's verdicts
  // but for 0.2.2 and 0.2.3, on which no agent runs on a model of the app's own.
  defaults: (releases) => {
    const newest = stable(releases).at(-1);
    return [...new Set([...['0.1.2', '1.6.0', '2.0.0'].filter((v) => releases.includes(v)), ...(newest ? [newest] : [])])];
  },
  newestOnly: { guarded: true },
  async shape() {
    const { WIRINGS, STORES } = await import('./index.js');
    return { wirings: WIRINGS.map((w) => w.id), stores: [...STORES] };
  },
  async load(version, log) {
    const a = await import('./index.js');
    const line = a.PINNED_VERSIONS[version];
    const pinned = line === undefined ? undefined : await a.pinnedLibIfPresent(line);
    if (line !== undefined && pinned === undefined) log(notPinnedHere('adk', version));
    const lib = pinned ?? (await a.installedLib(version, log));
    return { adapter: await a.adkAdapter(lib), ...loadedPackages(lib.dir, PACKAGES) };
  },
  repro: adkRepro,
};

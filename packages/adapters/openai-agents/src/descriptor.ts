// OpenAI Agents JS as the runner knows it: @openai/agents from 0.0.1, two versions pinned in the workspace, any other
// installed on demand, or a maintainer's local build (`openai-agents@file:PATH`).
import { CONTRACT_VERSION, loadedPackages, notPinnedHere, type FrameworkDescriptor } from '@approval-conformance/core/kit';
import { openaiAgentsRepro } from './repro/index.js';

const PACKAGES = ['@openai/agents', '@openai/agents-core', '@openai/agents-openai', 'zod'];

export const descriptor: FrameworkDescriptor = {
  contractVersion: CONTRACT_VERSION,
  name: 'openai-agents',
  npm: '@openai/agents',
  pinned: ['0.20.0', '0.14.3'],
  oldest: '0.0.1',
  // Every release where a verdict changes, and the latest (bisect; the README says how): 0.1.1 is the first whose
  // tools are told which call they run (0.0.x and 0.1.0 are n/a), 0.14.2 → 0.14.3 is where a retry after a crash on a
  // durable store stops telling the user the action ran, and 0.14.3 is also the last release before approvals were
  // bound to their arguments. The last release of each minor line (21) would not fit the matrix's 10 minutes.
  defaults: (releases) => ['0.1.1', '0.14.2', '0.14.3', '0.20.0'].filter((v) => releases.includes(v)),
  async shape() {
    const { WIRINGS } = await import('./index.js');
    return { wirings: WIRINGS.map((w) => w.id), stores: ['memory', 'sqlite'] };
  },
  localName: '@openai/agents',
  async load(version, log, source) {
    const oa = await import('./index.js');
    const line = source === undefined ? oa.PINNED_VERSIONS[version] : undefined;
    const pinned = line === undefined ? undefined : await oa.pinnedLibIfPresent(line);
    if (line !== undefined && pinned === undefined) log(notPinnedHere('openai-agents', version));
    const lib = pinned ?? (source !== undefined ? await oa.localLib(source, log) : await oa.installedLib(version, log));
    return { adapter: await oa.openaiAgentsAdapter(lib), ...loadedPackages(lib.dir, PACKAGES) };
  },
  repro: openaiAgentsRepro,
};

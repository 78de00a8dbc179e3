// Cloudflare Agents as the runner knows it: a version is @cloudflare/ai-chat's, from 0.0.6 (the first with tool
// approvals from the chat's socket, cf_agent_tool_approval); its agents and ai are the newest its peers admit under
// strict peers (the adapter's choosePartners), and the results' packages name all three.
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { CONTRACT_VERSION, lastOfEachMinor, loadedPackages, notPinnedHere, stable, type FrameworkDescriptor } from '@approval-conformance/core/kit';

const PACKAGES = ['@cloudflare/ai-chat', 'agents', 'ai'];

export const descriptor: FrameworkDescriptor = {
  contractVersion: CONTRACT_VERSION,
  name: 'cloudflare-agents',
  npm: '@cloudflare/ai-chat',
  // The workspace pins 0.12.2 with agents 0.32.0 and ai 7.0.185 (0.12.2 wants agents >=0.25 <1, and the registry
  // jumps from 0.24.0 to 0.32.0).
  pinned: ['0.12.2'],
  oldest: '0.0.6',
  // Published apart, in reports/cloudflare-agents/ (run --framework cloudflare-agents --out reports/cloudflare-agents):
  // its eleven default versions take about as long as the rest of the default matrix, which would pass 10 minutes.
  notInMatrix: true,
  // The last release of each minor line from the first with approvals (0.0.6) to the latest.
  defaults: (releases) => lastOfEachMinor(stable(releases).filter((v) => semver.gte(v, '0.0.6'))),
  async shape() {
    const { WIRINGS, STORES } = await import('./index.js');
    return { wirings: WIRINGS.map((w) => w.id), stores: [...STORES] };
  },
  async load(version, log) {
    const cf = await import('./index.js');
    // The pinned pair is the adapter's devDependencies: in the workspace only.
    let aiChat: string | undefined;
    try {
      aiChat = cf.frameworkVersions().aiChat;
    } catch {
      aiChat = undefined;
    }
    if (version === aiChat && this.pinned.includes(version)) {
      return { adapter: cf.cloudflareAgentsAdapter(), ...loadedPackages(fileURLToPath(new URL('..', import.meta.url)), PACKAGES) };
    }
    if (this.pinned.includes(version)) log(notPinnedHere('cloudflare-agents', version));
    const tree = await cf.installedTree(version, log);
    return { adapter: cf.versionedAdapter(tree), ...loadedPackages(tree.dir, PACKAGES) };
  },
};

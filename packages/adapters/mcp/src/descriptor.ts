// The Model Context Protocol's elicitation as the runner knows it: a version is @modelcontextprotocol/sdk's (1.x,
// from 1.13.0, the first with elicitInput: legacy push elicitation) or @modelcontextprotocol/server's (2.x, multi-round
// tool results); their numbers do not overlap. The newest of each line is pinned in the workspace.
import semver from 'semver';
import { CONTRACT_VERSION, loadedPackages, notPinnedHere, npmView, stable, type FrameworkDescriptor } from '@approval-conformance/core/kit';
import { mcpRepro } from './repro/index.js';

const PACKAGES_1 = ['@modelcontextprotocol/sdk', 'zod'];
const PACKAGES_2 = ['@modelcontextprotocol/server', '@modelcontextprotocol/client', '@modelcontextprotocol/core', 'zod'];

export const descriptor: FrameworkDescriptor = {
  contractVersion: CONTRACT_VERSION,
  name: 'mcp',
  npm: '@modelcontextprotocol/sdk',
  pinned: ['2.4.0', '1.32.2'],
  oldest: '1.13.0',
  // Both lines: the 1.x package's releases from 1.13.0, and the 2.x server's.
  async listReleases() {
    const [one, two] = await Promise.all([
      npmView<string[] | string>('@modelcontextprotocol/sdk', ['versions']),
      npmView<string[] | string>('@modelcontextprotocol/server', ['versions']),
    ]).catch(() => [undefined, undefined] as const);
    if (one === undefined || two === undefined) return [...this.pinned];
    const list = (v: string[] | string) => (Array.isArray(v) ? v : [v]);
    return [...list(one).filter((v) => semver.valid(v) && semver.major(v) === 1 && semver.gte(v, '1.13.0')), ...list(two).filter((v) => semver.valid(v) && semver.major(v) >= 2)];
  },
  // Two lines, judged apart: the newest of each runs what only the newest runs (two-approvals, say).
  line: (version) => (semver.major(version) === 1 ? '1' : '2'),
  // The newest of each line: the last release of every minor line (1.13.3 to 1.32.2, 2.0.0 to 2.4.0) gives the same
  // verdicts and lengths as the newest of its line (guarded-elicit-input needs URL-mode elicitation, from 1.23.0).
  defaults: (releases) => {
    const all = stable(releases);
    return [all.filter((v) => semver.major(v) === 1).at(-1), all.filter((v) => semver.major(v) >= 2).at(-1)].filter((v): v is string => v !== undefined);
  },
  async shape() {
    const { WIRINGS, STORES } = await import('./index.js');
    return { wirings: WIRINGS.map((w) => w.id), stores: [...STORES] };
  },
  async load(version, log) {
    const m = await import('./index.js');
    const line = m.PINNED_VERSIONS[version];
    const pinned = line === undefined ? undefined : await m.pinnedLibIfPresent(line);
    if (line !== undefined && pinned === undefined) log(notPinnedHere('mcp', version));
    const lib = pinned ?? (await m.installedLib(version, log));
    return { adapter: m.mcpAdapter(lib), ...loadedPackages(lib.dir, lib.line === '1' ? PACKAGES_1 : PACKAGES_2) };
  },
  repro: mcpRepro,
};

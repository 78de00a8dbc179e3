import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cell } from '../results.fixtures.js';
import type { ResultsFile, RunOptions } from '../results.js';
import { companionRuns } from './companions.js';

const OPTIONS: RunOptions = { scenarios: ['double-resume', 'replay'], mode: 'exhaustive', seed: 1, reduce: true, checkContents: true };

const run = (framework: string, over: Partial<ResultsFile> = {}): ResultsFile => {
  const c = cell({ version: '1.0.0', verdict: 'pass', framework });
  return { schemaVersion: 2, targets: [{ framework, version: '1.0.0', spec: framework, packages: {} }], cells: [c], complete: true, options: OPTIONS, ...over };
};

async function folder(files: Record<string, ResultsFile>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ac-companions-'));
  for (const [at, results] of Object.entries(files)) {
    await mkdir(dirname(join(dir, at)), { recursive: true });
    await writeFile(join(dir, at), JSON.stringify(results));
  }
  return dir;
}

describe('the runs published beside a report', () => {
  const mine = { targets: run('ai').targets!, options: OPTIONS };

  it("adds the frameworks a finished run of the default exploration holds and this one has not, from that run's cells", async () => {
    const dir = await folder({ 'results.json': run('ai'), 'cloudflare-agents/results.json': run('cloudflare-agents', { updated: '2026-12-06T01:19:24.890Z' }) });
    const { runs, left } = await companionRuns(dir, mine);
    expect(runs).toEqual([{ folder: 'cloudflare-agents', targets: run('cloudflare-agents').targets, cells: run('cloudflare-agents').cells, updated: '2026-12-06T01:19:24.890Z' }]);
    expect(left).toEqual([]);
  });

  it("passes over a partial run of this run's frameworks, and this run's own file wherever it is", async () => {
    const three = run('ai', { options: { ...OPTIONS, scenarios: ['three-tabs'] } });
    const dir = await folder({ 'three-tabs/results.json': three, 'data/results.json': run('mastra') });
    expect(await companionRuns(dir, mine, join(dir, 'data', 'results.json'))).toEqual({ runs: [], left: [] });
  });

  it('says a run it leaves out, and why, unless another run brings its framework in', async () => {
    const dir = await folder({
      'a-unfinished/results.json': run('cloudflare-agents', { complete: undefined }),
      'b-capped/results.json': run('mastra', { options: { ...OPTIONS, maxSchedules: 1500 } }),
      'cloudflare-agents/results.json': run('cloudflare-agents'),
    });
    const { runs, left } = await companionRuns(dir, mine);
    expect(runs.map((r) => r.folder)).toEqual(['cloudflare-agents']);
    expect(left).toEqual([{ folder: 'b-capped', frameworks: ['mastra'], why: 'its explorations were capped at 1500 schedules' }]);
  });

  it('compares the options only where this run recorded its own, and finds nothing in a folder not made yet', async () => {
    const dir = await folder({ 'cf/results.json': run('cloudflare-agents', { options: { ...OPTIONS, stores: ['memory'] } }) });
    expect((await companionRuns(dir, mine)).left).toEqual([{ folder: 'cf', frameworks: ['cloudflare-agents'], why: 'it ran with other options (--scenario double-resume,replay --store memory) than this run (--scenario double-resume,replay)' }]);
    expect((await companionRuns(dir, { targets: mine.targets })).runs.map((r) => r.folder)).toEqual(['cf']);
    expect(await companionRuns(join(dir, 'none'), mine)).toEqual({ runs: [], left: [] });
  });

  it('compares no wirings: a run naming its own framework\'s is added all the same', async () => {
    const dir = await folder({ 'cf/results.json': run('cloudflare-agents', { options: { ...OPTIONS, wirings: ['ai-chat-approval'] } }) });
    expect(await companionRuns(dir, mine)).toMatchObject({ runs: [{ folder: 'cf' }], left: [] });
  });
});

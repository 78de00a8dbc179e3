// Older @cloudflare/ai-chat releases under double-resume: every schedule the exploration runs, labelled, against the
// orders spike 1 picked by hand (tab B answers in A's wait before the continuation, while A's tool call is held,
// while the model's next call is held, after A's continuation finished). Offline: each version is taken from the
// suite's install cache (`pnpm conformance run --framework cloudflare-agents@VERSION` installs it there once); a test
// whose version is not there is skipped, since a test cannot install (that needs the registry).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkProperty,
  exploreExhaustive,
  formatSchedule,
  isolatedFolder,
  runWorld,
  SCENARIOS,
  type ScheduleRun,
} from '@approval-conformance/core';
import { stopRuntime } from './runtime.js';
import { versionedAdapter } from './versions.js';

afterAll(stopRuntime);

/** The trio `installedTree` picks for the version (partners from the registry, as of 2026-12-04), if it is cached. */
function cachedTree(aiChat: string, agents: string, ai: string) {
  const dir = isolatedFolder(`cloudflare-agents@${aiChat}+agents@${agents}+ai@${ai}`);
  if (!existsSync(join(dir, 'ready.json'))) return undefined;
  const version = (name: string) => (JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  return { dir, versions: { aiChat: version('@cloudflare/ai-chat'), agents: version('agents'), ai: version('ai') } };
}

/**
 * Where tab B's answer landed in A's flow: the first of A's gates still to be released when B's frame was sent
 * (A answered first: symmetry explores only that half).
 */
function whenBAnswered(run: ScheduleRun): string {
  const labels = run.steps.map((s) => ({ turn: s.gate.turn, label: s.gate.label }));
  const b = labels.findIndex((s) => s.turn === 't2');
  const next = labels.slice(b + 1).find((s) => s.turn === 't1');
  if (!next) return 'after-finish';
  if (next.label.startsWith('timer.fire')) return 'in-wait';
  if (next.label.startsWith('tool.call')) return 'hold-backend';
  if (next.label === 'model.reply') return 'hold-model';
  return `before ${next.label}`;
}

const labelled = (run: ScheduleRun) => run.steps.map((s) => `${s.release.gate} ${s.gate.label}`).join(' · ');
const effects = (run: ScheduleRun) => run.history.events.filter((e) => e.kind === 'effect').length;

async function explore(tree: NonNullable<ReturnType<typeof cachedTree>>) {
  const adapter = versionedAdapter(tree);
  const scenario = SCENARIOS.get('double-resume')!;
  const subject = { adapter, wiring: 'ai-chat-approval', store: 'durable-object', scenario };
  const runs: ScheduleRun[] = [];
  try {
    const stats = await exploreExhaustive(
      (selector) => runWorld(subject, selector, { checkContents: true }),
      (run) => {
        runs.push(run);
      },
      { symmetric: scenario.symmetric },
    );
    return { stats, runs };
  } finally {
    await adapter.release?.();
  }
}

const verdict = (runs: readonly ScheduleRun[], property: 'at-most-once' | 'no-resurrection' | 'fresh-view') =>
  runs.every((r) => checkProperty(property, r.history.events).holds) ? 'pass' : 'fail';

describe('cloudflare-agents, older releases, double-resume', () => {
  // 0.1.x: an approval that flips the part waits 500 ms (no stream running) and then continues; an approval the flip
  // refuses starts nothing (no timer, no continuation). So B has one gate and A four: B's send in 4 places.
  const v012 = cachedTree('0.1.2', '0.5.0', '6.0.333');
  it.skipIf(!v012)('0.1.2: B answers in each of spike 1 orders, the tool runs once each time, and B starts nothing', async () => {
    const { stats, runs } = await explore(v012!);
    expect(stats).toEqual({ schedules: 4, bounded: 0, pruned: 0, exhausted: true });
    const seen = Object.fromEntries(runs.map((r) => [whenBAnswered(r), labelled(r)]));
    const a = (n: number, label: string) => `t1:${n} ${label}`;
    const send = (t: string) => `${t}:1 client.send(tool-approval:a1)`;
    expect(seen).toEqual({
      'in-wait': [send('t1'), send('t2'), a(2, 'timer.fire(500ms)'), a(3, 'tool.call(transfer)'), a(4, 'model.reply')].join(' · '),
      'hold-backend': [send('t1'), a(2, 'timer.fire(500ms)'), send('t2'), a(3, 'tool.call(transfer)'), a(4, 'model.reply')].join(' · '),
      'hold-model': [send('t1'), a(2, 'timer.fire(500ms)'), a(3, 'tool.call(transfer)'), send('t2'), a(4, 'model.reply')].join(' · '),
      'after-finish': [send('t1'), a(2, 'timer.fire(500ms)'), a(3, 'tool.call(transfer)'), a(4, 'model.reply'), send('t2')].join(' · '),
    });
    for (const run of runs) expect({ schedule: formatSchedule(run.schedule), effects: effects(run) }).toEqual({ schedule: formatSchedule(run.schedule), effects: 1 });
    expect(runs.every((r) => r.status === 'complete' && r.undeclared.length === 0 && r.turnErrors.length === 0)).toBe(true);
    expect({ amo: verdict(runs, 'at-most-once'), nr: verdict(runs, 'no-resurrection'), fv: verdict(runs, 'fresh-view') }).toEqual({ amo: 'pass', nr: 'fail', fv: 'pass' });
  });

  // 0.2.x to 0.8.x: every approval frame enqueues a continuation with its apply as the prerequisite; one that comes
  // while another's 10 ms coalescing wait is open is merged into it (all prerequisites must have applied). B's
  // refused answer in A's window therefore cancels A's continuation: the approved tool never runs (no property of
  // double-resume judges that). Elsewhere B's refused answer starts a continuation that stops at its prerequisite,
  // with no timer and no binding call: B has one gate.
  const v086 = cachedTree('0.8.6', '0.17.0', '6.0.333');
  it.skipIf(!v086)('0.8.6: B answers in each of spike 1 orders; inside A\'s coalescing wait it cancels the continuation', async () => {
    const { stats, runs } = await explore(v086!);
    expect(stats).toEqual({ schedules: 4, bounded: 0, pruned: 0, exhausted: true });
    const seen = Object.fromEntries(runs.map((r) => [whenBAnswered(r), `${labelled(r)} => ${effects(r)} effect(s)`]));
    const send = (t: string) => `${t}:1 client.send(tool-approval:a1)`;
    const tail = ['t1:3 tool.call(transfer)', 't1:4 model.reply'];
    expect(seen).toEqual({
      'in-wait': `${[send('t1'), send('t2'), 't1:2 timer.fire(10ms)'].join(' · ')} => 0 effect(s)`,
      'hold-backend': `${[send('t1'), 't1:2 timer.fire(10ms)', send('t2'), ...tail].join(' · ')} => 1 effect(s)`,
      'hold-model': `${[send('t1'), 't1:2 timer.fire(10ms)', tail[0], send('t2'), tail[1]].join(' · ')} => 1 effect(s)`,
      'after-finish': `${[send('t1'), 't1:2 timer.fire(10ms)', ...tail, send('t2')].join(' · ')} => 1 effect(s)`,
    });
    // The lost approval: both tabs approved, the part stays approval-responded, nothing ran.
    const lost = runs.find((r) => whenBAnswered(r) === 'in-wait')!;
    const writes = lost.history.events.filter((e) => e.kind === 'record-write');
    expect(writes.every((e) => e.kind === 'record-write' && e.state === 'unspent')).toBe(true);
    expect(runs.every((r) => r.status === 'complete' && r.undeclared.length === 0 && r.turnErrors.length === 0)).toBe(true);
    expect({ amo: verdict(runs, 'at-most-once'), nr: verdict(runs, 'no-resurrection'), fv: verdict(runs, 'fresh-view') }).toEqual({ amo: 'pass', nr: 'fail', fv: 'pass' });
  });
});

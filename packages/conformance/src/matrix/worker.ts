// The worker process: loads one framework version, runs the units it is given, and sends each unit's cells the
// moment they are known. A crash or a hang here costs the runner one unit, never the run.
import { wiringInfo } from '@approval-conformance/core';
import { framework, useAdapters } from '../frameworks.js';
import { checkpointFile } from './checkpoints.js';
import { keyParts, unitDigest } from './keys.js';
import type { Unit, WorkerMessage, WorkerTask } from './protocol.js';
import { planUnits, runUnit, type UnitSaving } from './units.js';

/** How often a long unit saves its checkpoint, and says how far it has got (APPROVAL_CONFORMANCE_CHECKPOINT_MS: tests). */
const SAVE_EVERY_MS = Number(process.env['APPROVAL_CONFORMANCE_CHECKPOINT_MS'] ?? 60_000);
const SAY_EVERY_MS = 300_000;

const send = (message: WorkerMessage) =>
  new Promise<void>((resolve, reject) => process.send!(message, undefined, {}, (error) => (error ? reject(error) : resolve())));

async function work(task: WorkerTask): Promise<void> {
  let loaded;
  try {
    await useAdapters(task.adapters ?? []);
    loaded = await framework(task.framework).load(task.version, (line) => void send({ type: 'log', line }), task.source);
  } catch (error) {
    await send({ type: 'load-failed', message: error instanceof Error ? error.message : String(error) });
    return;
  }
  const { packages, nodeEngines } = loaded;
  // Cells carry the version the runner asked for: a local build's is marked `+local`, never a release's.
  const adapter = loaded.adapter.version === task.version ? loaded.adapter : { ...loaded.adapter, version: task.version };
  const known = { wiring: adapter.wirings.map((w) => w.id), store: [...adapter.stores] };
  for (const [kind, asked] of [['wiring', task.filters.wirings], ['store', task.filters.stores]] as const) {
    const unknown = asked?.filter((x) => !known[kind].includes(x)) ?? [];
    if (task.strictFilters && unknown.length > 0) {
      await send({
        type: 'bad-filter',
        message: `unknown ${kind} '${unknown[0]}' for ${task.framework}@${adapter.version}; choose from ${known[kind].join(', ')}.`,
      });
      return;
    }
  }
  const units = planUnits(adapter, task.filters);
  // Plain data only: a wiring may carry functions (its `unavailable` check), which do not cross to the runner.
  const wirings = adapter.wirings.map(wiringInfo);
  await send({ type: 'plan', packages, ...(nodeEngines ? { nodeEngines } : {}), wirings, units });
  if (task.planOnly) return;
  // Checkpoints are kept under the unit's key: a version with none (a local build) keeps none.
  const parts = task.checkpoints && (task.options.mode ?? 'exhaustive') === 'exhaustive' ? keyParts(framework(task.framework), task, new Map()) : undefined;
  const saving = (unit: Unit): UnitSaving | undefined =>
    task.checkpoints && typeof parts === 'object'
      ? {
          file: checkpointFile(task.checkpoints.dir, task, unit.key),
          key: unitDigest(parts, unit, task.options),
          resume: task.checkpoints.resume,
          everyMs: SAVE_EVERY_MS,
          sayEveryMs: SAY_EVERY_MS,
          log: (line) => void send({ type: 'log', line }),
        }
      : undefined;
  for (const unit of units) {
    if (task.skip.includes(unit.key) || (task.only && !task.only.includes(unit.key))) continue;
    await send({ type: 'start', key: unit.key });
    await send({ type: 'unit', key: unit.key, cells: await runUnit(adapter, unit, task.options, saving(unit)) });
  }
  // What the adapter kept from one unit to the next (a template database) goes before the worker does.
  await adapter.dispose?.().catch(() => undefined);
  await send({ type: 'done' });
}

// The runner is gone (killed, or stopped with Ctrl-C): stop too, rather than run on unobserved.
process.once('disconnect', () => process.exit(0));

process.once('message', (task: WorkerTask) => {
  work(task).then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`worker failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(70);
    },
  );
});

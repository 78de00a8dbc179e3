// The worker process: loads one framework version, runs the units it is given, and sends each unit's cells the
// moment they are known. A crash or a hang here costs the runner one unit, never the run.
import { wiringInfo } from '@approval-conformance/core';
import { framework } from '../frameworks.js';
import type { WorkerMessage, WorkerTask } from './protocol.js';
import { planUnits, runUnit } from './units.js';

const send = (message: WorkerMessage) =>
  new Promise<void>((resolve, reject) => process.send!(message, undefined, {}, (error) => (error ? reject(error) : resolve())));

async function work(task: WorkerTask): Promise<void> {
  let loaded;
  try {
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
  for (const unit of units) {
    if (task.skip.includes(unit.key) || (task.only && !task.only.includes(unit.key))) continue;
    await send({ type: 'start', key: unit.key });
    await send({ type: 'unit', key: unit.key, cells: await runUnit(adapter, unit, task.options) });
  }
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

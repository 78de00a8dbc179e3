// One schedule of one scenario on one adapter: a fresh world, the fakes, the scenario's program, and the world
// closed again whatever happened.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Adapter, World } from '../adapter.js';
import { CountingBackend } from '../fakes/backend.js';
import { Connections } from '../fakes/connections.js';
import { AdversarialModel } from '../fakes/model.js';
import type { Scenario } from '../scenarios/scenario.js';
import { runSchedule, type ScheduleRun, type Selector } from '../scheduler/run.js';

export interface Subject {
  readonly adapter: Adapter;
  readonly wiring: string;
  readonly store: string;
  readonly scenario: Scenario;
}

export async function runWorld(subject: Subject, selector: Selector): Promise<ScheduleRun> {
  const { adapter, wiring, store, scenario } = subject;
  const scratchDir = await mkdtemp(join(tmpdir(), 'approval-conformance-'));
  let world: World | undefined;
  try {
    return await runSchedule(async (ctl) => {
      const { gate, history } = ctl;
      const fakes = {
        model: new AdversarialModel(gate),
        backend: new CountingBackend(history, gate, scenario.backend),
        connections: new Connections(history, gate),
      };
      world = await adapter.createWorld({ wiring, store, scenario: scenario.id, gate, history, scratchDir, ...fakes });
      await scenario.program(world, fakes, ctl);
    }, selector);
  } finally {
    // Turns that were stopped or timed out still hold promises; they are dropped, never awaited.
    await world?.close();
    await rm(scratchDir, { recursive: true, force: true });
  }
}

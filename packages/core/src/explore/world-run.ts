// One schedule of one scenario on one adapter: a fresh world, the fakes, the scenario's program, and the world
// closed again whatever happened.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Adapter, World } from '../adapter.js';
import { CountingBackend } from '../fakes/backend.js';
import { Connections } from '../fakes/connections.js';
import { AdversarialModel } from '../fakes/model.js';
import type { HistoryEvent } from '../history/events.js';
import type { Recorder } from '../history/recorder.js';
import type { Fakes, Scenario } from '../scenarios/scenario.js';
import { runSchedule, type ScheduleRun, type Selector, type SetupCache } from '../scheduler/run.js';

export interface Subject {
  readonly adapter: Adapter;
  readonly wiring: string;
  readonly store: string;
  readonly scenario: Scenario;
}

interface SavedSetup {
  readonly world: unknown;
  readonly backend: ReturnType<CountingBackend['snapshot']>;
  readonly connections: readonly string[];
  readonly events: readonly HistoryEvent[];
  readonly value: unknown;
}

/** Setups saved per subject: every schedule of a cell starts from the same setup, so it runs once per cell. */
const savedSetups = new WeakMap<Subject, SavedSetup>();

export interface WorldRunOptions {
  /** Read the world's state around each release and check each change was declared (`World.contents`). */
  readonly checkContents?: boolean;
}

export async function runWorld(subject: Subject, selector: Selector, options: WorldRunOptions = {}): Promise<ScheduleRun> {
  const { adapter, wiring, store, scenario } = subject;
  // The world's own folder, made the first time its adapter asks for it: a world on memory never does.
  let scratchDir: string | undefined;
  const scratch = () => (scratchDir ??= mkdtempSync(join(tmpdir(), 'approval-conformance-')));
  let world: World | undefined;
  let fakes: Fakes | undefined;
  let history: Recorder | undefined;
  // Only worlds that can snapshot themselves skip the setup; the others run it every time.
  const setupCache: SetupCache = {
    async load() {
      const saved = savedSetups.get(subject);
      if (!saved || !world?.restore) return undefined;
      await world.restore(structuredClone(saved.world));
      fakes!.backend.restore(saved.backend);
      fakes!.connections.restore(saved.connections);
      history!.load(saved.events);
      return { value: structuredClone(saved.value) };
    },
    async save(value) {
      if (!world?.snapshot || !world.restore || savedSetups.has(subject)) return;
      savedSetups.set(subject, {
        world: structuredClone(await world.snapshot()),
        backend: fakes!.backend.snapshot(),
        connections: fakes!.connections.snapshot(),
        events: structuredClone(history!.events),
        value: structuredClone(value),
      });
    },
  };
  try {
    return await runSchedule(
      async (ctl) => {
        const { gate } = ctl;
        history = ctl.history;
        fakes = {
          model: new AdversarialModel(gate),
          backend: new CountingBackend(history, gate, scenario.backend),
          connections: new Connections(history, gate),
        };
        world = await adapter.createWorld({
          wiring,
          store,
          scenario: scenario.id,
          gate,
          history,
          get scratchDir() {
            return scratch();
          },
          external: ctl.external,
          accessed: ctl.accessed,
          declare: ctl.declare,
          ...fakes,
        });
        const { contents, changesInPlace } = world;
        // A world whose store changes in place is always watched: its contents are where those writes show.
        if ((options.checkContents || changesInPlace) && contents) {
          const backend = fakes.backend;
          ctl.watch(async () => ({ ...(await contents.call(world)), world: backend.contents() }), changesInPlace?.bind(world));
        }
        await scenario.program(world, fakes, ctl);
      },
      selector,
      { setupCache, trackNativeWork: adapter.awaitsNativeWork === true, fakeTimers: adapter.sleeps === true || scenario.virtualClock === true },
    );
  } finally {
    // Turns that were stopped or timed out still hold promises; they are dropped, never awaited.
    await world?.close();
    if (scratchDir !== undefined) rmSync(scratchDir, { recursive: true, force: true });
  }
}

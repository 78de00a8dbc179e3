// Whose code is running: each turn's code runs in an async context of its own (AsyncLocalStorage), tagged with the
// turn when it is spawned, and the scenario's own program in another. A release lets one turn's code run until its
// next gate, and what the explorer knows of the release (its gate's accesses, the events it recorded) is about that
// code. But other code can run in the same quiet: a turn woken by the release (a lock handed over, a Promise.all that
// both turns fed), or the scenario's tail after a join. Its events and accesses are charged to the release, yet its
// gate declared nothing of them, and in another order they would be charged to another release. So every event and
// every reported access is stamped with the context it came from, and a release that carries another context's work
// is `foreign`: dependent with every other release (`independent`), which is always sound.
import { AsyncLocalStorage } from 'node:async_hooks';

/** The context of the scenario's own program (its setup, its decisions, what it does after joining its turns). */
export const SCENARIO_CODE = '(scenario)';

const whose = new AsyncLocalStorage<string>();

/** Runs `body`, and everything it starts, as `context`'s code. */
export const runAs = <T>(context: string, body: () => T): T => whose.run(context, body);

/** The context of the code running now: a turn, `SCENARIO_CODE`, or undefined outside any run. */
export const currentCode = (): string | undefined => whose.getStore();

/** How a context is named in messages. */
export const codeOf = (context: string | undefined) =>
  context === SCENARIO_CODE ? "the scenario's own code" : context === undefined ? 'code outside any turn' : `${context}'s code`;

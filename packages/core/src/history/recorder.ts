// Where adapters, fakes and scenarios write the history while a schedule runs. Each event remembers how many gate
// releases had happened when it was recorded, so a counterexample can be cut at the release that produced it.
import type { HistoryEvent } from './events.js';

export class Recorder {
  readonly #events: HistoryEvent[] = [];
  readonly #releasesAt: number[] = [];
  readonly #contexts: (string | undefined)[] = [];
  readonly #releases: () => number;
  readonly #lastGate: (actor: string) => string | undefined;
  readonly #whose: () => string | undefined;

  /**
   * @param releases how many releases the scheduler has made so far
   * @param lastGate the label of the last gate the actor was released from, attached to events that name none
   * @param whose the context of the code running now (a turn's, the scenario's), recorded with each event
   */
  constructor(
    releases: () => number = () => 0,
    lastGate: (actor: string) => string | undefined = () => undefined,
    whose: () => string | undefined = () => undefined,
  ) {
    this.#releases = releases;
    this.#lastGate = lastGate;
    this.#whose = whose;
  }

  emit(event: HistoryEvent): void {
    const gate = event.gate ?? this.#lastGate(event.actor);
    this.#events.push(gate === undefined || event.gate !== undefined ? event : { ...event, gate });
    this.#releasesAt.push(this.#releases());
    this.#contexts.push(this.#whose());
  }

  /** Puts back events recorded by an earlier run's setup (before any choice), as the setup cache does. */
  load(events: readonly HistoryEvent[]): void {
    for (const event of events) {
      this.#events.push(event);
      this.#releasesAt.push(0);
      this.#contexts.push(undefined);
    }
  }

  get events(): readonly HistoryEvent[] {
    return this.#events;
  }

  /** For each event, the context of the code that recorded it (`scheduler/attribution.ts`). */
  get contexts(): readonly (string | undefined)[] {
    return this.#contexts;
  }

  /** For each event, the number of releases made before it was recorded. */
  get releasesAt(): readonly number[] {
    return this.#releasesAt;
  }
}

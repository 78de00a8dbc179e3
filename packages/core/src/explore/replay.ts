// Replay: run one schedule string on a fresh world and get its history back, as a test or the CLI's `replay` does.
import type { History } from '../history/events.js';
import { narrate } from '../history/narrate.js';
import { parseSchedule } from '../scheduler/schedule.js';
import { replaySelector } from '../scheduler/selectors.js';
import { runWorld, type Subject } from './world-run.js';

export interface Replayed {
  readonly history: History;
  readonly story: readonly string[];
}

/** Throws ScheduleMismatch when the subject does not reach a gate the schedule names. */
export async function replaySchedule(subject: Subject, schedule: string): Promise<Replayed> {
  let run;
  try {
    run = await runWorld(subject, replaySelector(parseSchedule(schedule)));
  } finally {
    await subject.adapter.release?.();
  }
  return { history: run.history.events, story: run.history.events.map(narrate) };
}

// A history told as a story: one narrated sentence per event, in history order, so line i is event i.
import type { History } from './events.js';
import { narrate } from './narrate.js';

export function story(history: History): string[] {
  return history.map(narrate);
}

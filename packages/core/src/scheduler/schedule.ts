// A schedule is a short printable string: the releases in order, `t1:1 t2:1 t1:2=1 t1:3! ...`, where `t1:2` is turn
// t1's second gate, `=1` the adversary's alternative at a decision gate, and `!` the process dying at that gate
// instead of releasing it. Replaying the string reproduces the run.
import type { Release } from './gate.js';

export function formatSchedule(schedule: readonly Release[]): string {
  return schedule.map((r) => (r.crash ? `${r.gate}!` : r.choice === 0 ? r.gate : `${r.gate}=${r.choice}`)).join(' ');
}

const TOKEN = /^([A-Za-z][\w.-]*:\d+)(?:=(\d+)|(!))?$/;

export function parseSchedule(text: string): Release[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  return trimmed.split(/\s+/).map((token) => {
    const match = TOKEN.exec(token);
    if (!match) {
      throw new SyntaxError(`'${token}' is not a release; expected TURN:N, TURN:N=CHOICE or TURN:N!, e.g. t1:2=1`);
    }
    if (match[3] === '!') return { gate: match[1]!, choice: 0, crash: true };
    return { gate: match[1]!, choice: match[2] === undefined ? 0 : Number(match[2]) };
  });
}

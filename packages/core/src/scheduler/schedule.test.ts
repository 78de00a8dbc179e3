import { describe, expect, it } from 'vitest';
import { formatSchedule, parseSchedule } from './schedule.js';

describe('schedule strings', () => {
  it('round-trip', () => {
    const text = 't1:1 t2:1 t1:2=1 t1:3! worker-2:10';
    expect(formatSchedule(parseSchedule(text))).toBe(text);
  });

  it('reject a token that is not a release, naming it', () => {
    expect(() => parseSchedule('t1:1 banana')).toThrow(/'banana' is not a release/);
  });
});

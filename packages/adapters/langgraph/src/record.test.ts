import { describe, expect, it } from 'vitest';
import { approvalState, pendingApprovals } from './record.js';

const task = 'task-approve';
// v1 writes the interrupt as [{ id, value }]; v0 as an Interrupt object with when/resumable/ns.
const v1Interrupt = [task, '__interrupt__', [{ id: 'f00d', value: { approval: 'a1', action: {} } }]] as const;
const v0Interrupt = [task, '__interrupt__', { value: { approval: 'a1' }, when: 'during', resumable: true, ns: ['approve:x'] }] as const;

describe('pendingApprovals', () => {
  it.each([
    ['v1', v1Interrupt],
    ['v0', v0Interrupt],
  ])('reads a pending interrupt written by %s', (_version, write) => {
    expect([...pendingApprovals({ pendingWrites: [write] })!]).toEqual(['a1']);
  });

  it('keeps it pending when only the resume value has been written', () => {
    const tuple = { pendingWrites: [v1Interrupt, ['00000000-0000-0000-0000-000000000000', '__resume__', 'yes'] as const] };
    expect([...pendingApprovals(tuple)!]).toEqual(['a1']);
  });

  it('counts it answered once its task has written an output channel', () => {
    const tuple = { pendingWrites: [v1Interrupt, [task, '__resume__', ['yes']] as const, [task, 'answer', 'yes'] as const] };
    expect([...pendingApprovals(tuple)!]).toEqual([]);
  });

  it('finds nothing on an empty or missing checkpoint', () => {
    expect(pendingApprovals(undefined)).toBeUndefined();
    expect(pendingApprovals({ pendingWrites: [] })!.size).toBe(0);
  });
});

describe('approvalState', () => {
  it('is unspent while pending, spent once seen and no longer pending, absent before or with no checkpoint', () => {
    const seen = new Set(['a1']);
    expect(approvalState(new Set(['a1']), 'a1', seen)).toBe('unspent');
    expect(approvalState(new Set(), 'a1', seen)).toBe('spent');
    expect(approvalState(new Set(), 'a2', seen)).toBe('absent');
    expect(approvalState(undefined, 'a1', seen)).toBe('absent');
  });
});

import { randomFill, randomFillSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { nativeWorkInFlight, trackNativeWork } from './inflight.js';

const nextMacrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

let stop: (() => void) | undefined;
afterEach(() => stop?.());

describe('native work in flight', () => {
  it('counts an asynchronous crypto job until its callback has run', async () => {
    stop = trackNativeWork();
    const done = new Promise((resolve) => randomFill(Buffer.alloc(16), resolve));
    await Promise.resolve();
    expect(nativeWorkInFlight()).toBe(1);
    await done;
    await nextMacrotask();
    expect(nativeWorkInFlight()).toBe(0);
  });

  it('does not wait for a crypto job that ran synchronously (it gets no callback, and only garbage collection ends it)', async () => {
    stop = trackNativeWork();
    randomFillSync(Buffer.alloc(16));
    await nextMacrotask();
    expect(nativeWorkInFlight()).toBe(0);
  });
});

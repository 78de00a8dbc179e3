import { afterEach, describe, expect, it } from 'vitest';
import { WORKER_TAG_ENV, worldNamePrefix } from './server-names.js';

describe('worldNamePrefix', () => {
  afterEach(() => {
    delete process.env[WORKER_TAG_ENV];
  });

  it("names a world's server state after the runner's tag for this worker", () => {
    process.env[WORKER_TAG_ENV] = '3f9a0c1d2e4b';
    expect(worldNamePrefix()).toBe('w_3f9a0c1d2e4b_');
  });

  it('falls back to the process id outside the runner, or for a tag that is not a plain identifier', () => {
    expect(worldNamePrefix()).toBe(`w_${process.pid}_`);
    process.env[WORKER_TAG_ENV] = 'x"; DROP';
    expect(worldNamePrefix()).toBe(`w_${process.pid}_`);
  });
});

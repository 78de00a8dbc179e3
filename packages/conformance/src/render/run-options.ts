// The options a report's run was made with, as the `run` flags that differ from the default matrix's: a report that
// covers a part of the matrix (one scenario, some properties, a cap on schedules, other reductions) says so, and says
// what to give `run --resume` to continue it.
import { DEFAULT_SCENARIOS } from '@approval-conformance/core';
import type { RunOptions } from '../results.js';

const listed = (flag: string, values: readonly string[] | undefined) => (values === undefined ? [] : [`${flag} ${values.join(',')}`]);

/** The flags, space-separated, or undefined for the default matrix's options. */
export function runFlags(options: RunOptions): string | undefined {
  const defaultScenarios = options.scenarios.length === DEFAULT_SCENARIOS.length && DEFAULT_SCENARIOS.every((s) => options.scenarios.includes(s));
  const flags = [
    ...(defaultScenarios ? [] : listed('--scenario', options.scenarios)),
    ...listed('--wiring', options.wirings),
    ...listed('--store', options.stores),
    ...listed('--property', options.properties),
    ...(options.mode === 'sampled' ? [`--sampled ${options.samples ?? 1000}`, `--seed ${options.seed ?? 1}`] : []),
    ...(options.maxSchedules === undefined ? [] : [`--max-schedules ${options.maxSchedules}`]),
    ...(options.reduce === true ? [] : options.reduce === false ? ['--no-reduce'] : [`--reduce ${options.reduce.length === 0 ? 'none' : options.reduce.join(',')}`]),
  ];
  return flags.length === 0 ? undefined : flags.join(' ');
}

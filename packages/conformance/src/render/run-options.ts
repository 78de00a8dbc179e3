// The options a report's run was made with, as the `run` flags that differ from the default matrix's: a report that
// covers a part of the matrix (one scenario, some properties, a cap on schedules, other reductions) says so, and says
// what to give `run --resume` to continue it. Whether contents were checked is said in a sentence either way.
import { DEFAULT_SCENARIOS } from '@approval-conformance/core';
import { contentsChecked, type RunOptions } from '../results.js';

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
    ...(contentsChecked(options) ? [] : ['--no-check-contents']),
  ];
  return flags.length === 0 ? undefined : flags.join(' ');
}

/**
 * Whether the run checked contents, in one sentence for "About this run": said either way, as the published
 * results were once made without. Options not known (a file from before they were recorded): without.
 */
export function contentsSentence(options: RunOptions | undefined): string {
  return contentsChecked(options)
    ? 'Contents were checked: where a world can read its state back, a release that changed a key its gate did not declare written made its cell error.'
    : "Contents were not checked: each release's events and store calls were checked against its gate's declaration, but not which keys of the world's state it changed.";
}

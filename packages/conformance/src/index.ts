// approval-conformance as a library: run the suite and read its results (see README.md, "Programmatic API"), or
// drive the CLI itself in-process.
export { ConformanceError, readResults, run, type RunOptions } from './api.js';
export type {
  Environment,
  ResultCell,
  ResultsFile,
  ResultTarget,
  RunOptions as RecordedRunOptions,
} from './results.js';
export type { Counterexample, PropertyId, ScenarioId, Verdict } from '@approval-conformance/core';
export { main, COMMANDS } from './main.js';
export type { Command, Io } from './commands/command.js';

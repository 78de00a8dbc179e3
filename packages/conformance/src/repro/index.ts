// Standalone reproductions (`approval-conformance repro`): for a failing cell, a folder that shows the bug with the
// framework alone. script.ts assembles it and scenarios.ts holds the scenarios' parts; each framework's part (its
// documented app) comes from its adapter's descriptor (`repro`).
import type { FrameworkRepro } from '@approval-conformance/core';
import { frameworks } from '../registry.js';

/** The reproduction parts of every framework the runner knows that has them, each under its framework's name. */
export const frameworkRepros = (): FrameworkRepro[] => frameworks().flatMap((f) => (f.repro ? [{ ...f.repro, framework: f.name }] : []));

export { REPRO_SCENARIOS } from './scenarios.js';
export { reproDir, reproFiles, reproFor, type ReproFiles, type ReproPlan, type ReproTarget, type StoryLink } from './script.js';

// A counterexample's story as plain text: one numbered line per event, the witness marked with '>'. The same lines
// `replay --cell` prints, for the places that show a story without Markdown or HTML (JUnit XML); and where a story is
// in the reports.
import type { Counterexample } from '@approval-conformance/core';
import type { ResultCell } from '../results.js';
import { urlPart } from './escape.js';

/** The anchor of a cell's story within its version's stories file. */
export const anchor = (c: Pick<ResultCell, 'wiring' | 'store' | 'scenario' | 'property'>) =>
  `${c.wiring}-${c.store}-${c.scenario}-${c.property}`.toLowerCase().replace(/[^a-z0-9-]+/g, '-');

/** Where a cell's story is, in Markdown, from the reports' folder: `stories/NAME@VERSION.md#ANCHOR`. */
export const storyPath = (c: Pick<ResultCell, 'framework' | 'version' | 'wiring' | 'store' | 'scenario' | 'property'>) =>
  `stories/${urlPart(c.framework)}@${urlPart(c.version)}.md#${anchor(c)}`;

export function storyLines(ce: Pick<Counterexample, 'story' | 'witness'>): string[] {
  const witness = new Set(ce.witness);
  return ce.story.map((line, i) => `${witness.has(i) ? '>' : ' '} ${String(i + 1).padStart(2)}. ${line}`);
}

// A counterexample's story as plain text: one numbered line per event, the witness marked with '>'. The same lines
// `replay --cell` prints, for the places that show a story without Markdown or HTML (JUnit XML).
import type { Counterexample } from '@approval-conformance/core';

export function storyLines(ce: Pick<Counterexample, 'story' | 'witness'>): string[] {
  const witness = new Set(ce.witness);
  return ce.story.map((line, i) => `${witness.has(i) ? '>' : ' '} ${String(i + 1).padStart(2)}. ${line}`);
}

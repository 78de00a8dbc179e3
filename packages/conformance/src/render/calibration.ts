// The reference runtime as the reports show it: not a framework to adopt but the calibration subject. Its twelve
// switch settings are the essay's design model built in real code; the suite is calibrated when the explorer finds,
// on every store, exactly the at-most-once and no-resurrection verdicts the model checker finds for double-resume.
import { MODEL_PROPERTIES, modelTable, switchesName } from '@approval-conformance/core';
import type { ResultCell } from '../results.js';
import { CALIBRATION } from './decider.js';

export interface Calibration {
  readonly agree: number;
  readonly total: number;
  /** Cells whose verdict is not the model's (an error cell counts here too). */
  readonly disagreeing: readonly { readonly cell: ResultCell; readonly model: 'holds' | 'violated' }[];
}

/** The reference cells the design model speaks of, against its verdicts; undefined when the results have none. */
export function calibration(cells: readonly ResultCell[]): Calibration | undefined {
  const model = new Map(
    modelTable(2).rows.flatMap((row) => MODEL_PROPERTIES.map((p): [string, string] => [`${switchesName(row)}/${p}`, row.properties[p].verdict])),
  );
  const judged = cells.filter((c) => c.framework === CALIBRATION && c.scenario === 'double-resume' && model.has(`${c.wiring}/${c.property}`));
  if (judged.length === 0) return undefined;
  const disagreeing = judged.flatMap((cell) => {
    const expected = model.get(`${cell.wiring}/${cell.property}`) as 'holds' | 'violated';
    const agrees = (expected === 'holds' && cell.verdict === 'pass' && cell.exhaustive) || (expected === 'violated' && cell.verdict === 'fail');
    return agrees ? [] : [{ cell, model: expected }];
  });
  return { agree: judged.length - disagreeing.length, total: judged.length, disagreeing };
}

// How a verdict reads in a table. A sampled or partial pass never reads like an exhaustive one.
import type { PropertyVerdict } from '@approval-conformance/core';

export function verdictCell(v: Pick<PropertyVerdict, 'verdict' | 'exhaustive' | 'schedules' | 'counterexample'>): string {
  switch (v.verdict) {
    case 'pass':
      return v.exhaustive ? `pass (${v.schedules} schedule${v.schedules === 1 ? "" : "s"})` : `pass (sampled ${v.schedules})`;
    case 'fail':
      return `fail (${v.counterexample?.steps ?? '?'} steps)`;
    case 'allowed':
      return `allowed (${v.counterexample?.steps ?? '?'} steps)`;
    case 'not-applicable':
      return 'n/a';
    case 'error':
      return 'error';
    case 'timeout':
      return 'timeout';
  }
}

// A toy subject for the explorer's own tests: spends after the effect (the essay's first race) over a Map.
import type { Adapter, World, WorldEnv } from '../adapter.js';
import { TRANSFER } from '../scenarios/scenario.js';

export interface ToyOptions {
  /** Make every other world take a different path: a nondeterministic subject. */
  readonly flaky?: boolean;
  /** Spend by compare-and-set before the effect: the fixed design. */
  readonly atomic?: boolean;
  /** Throw at the end of every resume. */
  readonly throws?: boolean;
  /** Give up waiting for an answer a second after the proposal, then refuse a late one, or run it anyway. */
  readonly expires?: 'refuses' | 'runs';
}

let worldsBuilt = 0;

export function toyAdapter(options: ToyOptions = {}): Adapter {
  return {
    framework: 'toy',
    version: '0.0.0',
    wirings: [{ id: 'only', description: 'the one wiring' }],
    stores: ['memory'],
    applicability: () => ({ applicable: true }),
    createWorld: async (env) => toyWorld(env, options, worldsBuilt++),
  };
}

function toyWorld(env: WorldEnv, options: ToyOptions, n: number): World {
  let state: 'absent' | 'unspent' | 'spent' = 'absent';
  let version = 0;
  const { gate, history } = env;
  const write = (actor: string, next: 'unspent' | 'spent', conditional?: boolean) => {
    history.emit({ kind: 'record-write', actor, approvalId: 'a1', version: ++version, from: state, state: next, ...(conditional ? { conditional } : {}) });
    state = next;
  };
  let expired = false;
  return {
    async propose(turn) {
      await gate(turn, 'store.create(a1)');
      write(turn, 'unspent');
      if (options.expires) {
        setTimeout(() => {
          expired = true;
        }, 1000);
      }
      return { approvalId: 'a1', action: TRANSFER };
    },
    ...(options.expires ? { answerTimeout: 1000 } : {}),
    async resume(turn) {
      if (expired && options.expires === 'refuses') return;
      if (options.flaky && n % 2 === 1) await gate(turn, 'cache.warm');
      await gate(turn, 'store.read(a1)', { access: [{ key: 'record:a1', mode: 'read' }] });
      history.emit({ kind: 'record-read', actor: turn, approvalId: 'a1', version, state });
      if (options.atomic) {
        await gate(turn, 'store.cas(a1)');
        if (state !== 'unspent') return;
        write(turn, 'spent', true);
      } else if (state !== 'unspent') {
        return;
      }
      await env.backend.call(turn, { approvalId: 'a1', dispatch: `${turn}/a1`, action: TRANSFER });
      if (!options.atomic) {
        await gate(turn, 'store.write(a1)');
        write(turn, 'spent');
      }
      if (options.throws) throw new Error('lost the reply');
    },
    inspect: async () => ({ state, version }),
    close: async () => {},
  };
}

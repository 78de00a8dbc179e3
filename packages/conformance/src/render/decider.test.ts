import { describe, expect, it } from 'vitest';
import { allSwitches, modelTable, switchesName } from '@approval-conformance/core';
import { cell, failing } from '../results.fixtures.js';
import type { ResultCell, ResultTarget } from '../results.js';
import { calibration } from './calibration.js';
import { frameworkAnswers, versionSteps } from './decider.js';

const target = (version: string, wirings?: ResultTarget['wirings']): ResultTarget => ({
  framework: 'ai',
  version,
  spec: 'ai',
  packages: {},
  ...(wirings ? { wirings } : {}),
});

const on = (wiring: string, c: ResultCell): ResultCell => ({ ...c, wiring, id: `${c.id}/${wiring}` });

describe('frameworkAnswers', () => {
  it("answers for the newest version of each release line of a framework that has several (MCP's 1.x and 2.x)", () => {
    const mcp = (version: string): ResultTarget => ({ framework: 'mcp', version, spec: 'mcp', packages: {}, wirings: [{ id: 'plain', description: 'the docs', docsDefault: true }] });
    const at = (version: string) => ({ ...on('plain', cell({ version, verdict: 'pass' })), framework: 'mcp' });
    const answers = frameworkAnswers([mcp('1.31.0'), mcp('1.32.2'), mcp('2.4.0')], ['1.31.0', '1.32.2', '2.4.0'].map(at));
    expect(answers.map((a) => `${a.framework}@${a.version}`)).toEqual(['mcp@2.4.0', 'mcp@1.32.2']);
  });

  it("sets the docs' default beside the documented wiring that keeps the most, and the guarded one apart", () => {
    const wirings = [
      { id: 'plain', description: 'the docs', docsDefault: true as const },
      { id: 'careful', description: 'resume by id' },
      // Copied from its documented wiring, flag and all: still not the docs' default.
      { id: 'guarded-plain', description: 'with the guard', docsDefault: true as const },
    ];
    const cells = [
      on('plain', failing('7.0.0')),
      on('careful', cell({ version: '7.0.0', verdict: 'pass' })),
      on('guarded-plain', cell({ version: '7.0.0', verdict: 'pass' })),
      // An older version is not the answer.
      on('plain', cell({ version: '6.0.0', verdict: 'pass' })),
    ];
    const [answer] = frameworkAnswers([target('6.0.0'), target('7.0.0', wirings)], cells);
    expect(answer!.version).toBe('7.0.0');
    expect(answer!.docsDefault!.wiring).toBe('plain');
    expect(answer!.safest!.wiring).toBe('careful');
    expect(answer!.fix!.wiring).toBe('guarded-plain');
    expect(answer!.fix!.docsDefault).toBe(false);
  });

  it("sets the framework's own fix apart from the safest documented wiring, with its page", () => {
    const page = 'https://example.com/docs/hitl#own-fix';
    const wirings = [
      { id: 'plain', description: 'the docs', docsDefault: true as const },
      { id: 'own-fix', description: "the docs' remedy", remedy: page },
      { id: 'guarded-own-fix', description: 'with the guard', remedy: page },
    ];
    const cells = [
      on('plain', failing('7.0.0')),
      on('own-fix', cell({ version: '7.0.0', verdict: 'pass' })),
      on('guarded-own-fix', cell({ version: '7.0.0', verdict: 'pass' })),
    ];
    const [answer] = frameworkAnswers([target('7.0.0', wirings)], cells);
    // The remedy keeps more than the default, yet the safest of what the docs show first is still the default.
    expect(answer!.safest!.wiring).toBe('plain');
    expect(answer!.remedy!.wiring).toBe('own-fix');
    expect(answer!.remedy!.remedy).toBe(page);
    // A guarded wiring is ours, whatever it was copied from.
    expect(answer!.fix!.wiring).toBe('guarded-own-fix');
    expect(answer!.fix!.remedy).toBeUndefined();
  });

  it('knows the stores where each property was checked, apart from the stores where its wiring ran anything', () => {
    const cells = [
      on('plain', failing('7.0.0')),
      // The file store runs one other scenario only: it never judged double-resume's at-most-once.
      on('plain', cell({ version: '7.0.0', verdict: 'not-applicable', store: 'file' })),
      on('plain', cell({ version: '7.0.0', verdict: 'pass', store: 'file', scenario: 'crash-restart', property: 'disclosure' })),
    ];
    const [answer] = frameworkAnswers([target('7.0.0', [{ id: 'plain', description: 'the docs', docsDefault: true }])], cells);
    expect(answer!.docsDefault!.stores).toEqual(['memory', 'file']);
    expect(answer!.docsDefault!.properties.get('at-most-once')!.stores).toEqual(['memory']);
    expect(answer!.docsDefault!.properties.get('disclosure')!.stores).toEqual(['file']);
  });

  it('does not call a wiring made for one scenario the safest because it was judged on less', () => {
    const cells = [
      on('whole', failing('1.0.0')),
      on('whole', cell({ version: '1.0.0', verdict: 'pass', scenario: 'replay', property: 'binding' })),
      on('one-scenario', cell({ version: '1.0.0', verdict: 'fail', scenario: 'error-after-effect', property: 'disclosure' })),
    ];
    expect(frameworkAnswers([target('1.0.0')], cells)[0]!.safest!.wiring).toBe('whole');
  });

  it('leaves the reference runtime out: it is the calibration subject', () => {
    const ref = { ...failing('0.0.0'), framework: 'reference' };
    expect(frameworkAnswers([{ ...target('0.0.0'), framework: 'reference' }], [ref])).toEqual([]);
  });
});

describe('versionSteps', () => {
  it('marks a pass that became a fail as a regression and the reverse as a fix, on cells both versions ran', () => {
    const cells = [
      cell({ version: '1.0.0', verdict: 'pass' }),
      failing('1.1.0'),
      failing('1.2.0'),
      cell({ version: '1.3.0', verdict: 'pass' }),
      // Only the newest ran this store: not a change.
      cell({ version: '1.3.0', verdict: 'fail', store: 'sqlite' }),
    ];
    const steps = versionSteps([target('1.0.0'), target('1.1.0'), target('1.2.0'), target('1.3.0')], cells);
    expect(steps.map((s) => [s.from, s.to, s.changes.map((c) => c.kind)])).toEqual([
      ['1.0.0', '1.1.0', ['regression']],
      ['1.2.0', '1.3.0', ['fix']],
    ]);
    expect(steps[0]!.changes[0]!.failing?.version).toBe('1.1.0');
  });
});

describe('calibration', () => {
  const model = new Map(
    modelTable(2).rows.flatMap((row) => (['at-most-once', 'no-resurrection'] as const).map((p) => [`${switchesName(row)}/${p}`, row.properties[p].verdict])),
  );
  const referenceCells = (flip?: string) =>
    allSwitches().flatMap((s) =>
      (['at-most-once', 'no-resurrection'] as const).map((property) => {
        const id = `${switchesName(s)}/${property}`;
        const holds = (model.get(id) === 'holds') !== (id === flip);
        return { ...(holds ? cell({ version: '0.0.0', verdict: 'pass' }) : failing('0.0.0')), framework: 'reference', wiring: switchesName(s), property, id };
      }),
    );

  it('counts the reference cells that agree with the design model', () => {
    expect(calibration(referenceCells())).toMatchObject({ agree: 24, total: 24, disagreeing: [] });
  });

  it('names a cell that does not', () => {
    const c = calibration(referenceCells('cas-fresh/at-most-once'))!;
    expect([c.agree, c.total]).toEqual([23, 24]);
    expect(c.disagreeing.map((d) => [d.cell.id, d.model])).toEqual([['cas-fresh/at-most-once', 'holds']]);
  });
});

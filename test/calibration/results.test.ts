// The figures of a closed calibration (src/calibration/results.ts), on cases small enough to check
// by hand: majority on ties, Fleiss' kappa where it is defined and where it is not, and answers
// missing from a session closed early.
import { calibrationResults, fleissKappa, majorityOf, type Outcome } from '../../src/calibration/results.ts';
import { describe, expect, test } from '../support/harness.ts';

const P: Outcome = 'passed';
const F: Outcome = 'failed';
const N: Outcome = 'na';

describe('calibration figures', () => {
  test('a majority is more than half of the answers; a tie has none', () => {
    expect(majorityOf([P, P, F])).toBe(P);
    expect(majorityOf([P, F])).toBeNull();
    expect(majorityOf([P, F, N])).toBeNull();
    expect(majorityOf([])).toBeNull();
  });

  test("Fleiss' kappa: 1 for perfect agreement over mixed answers, below 0 for systematic disagreement, undefined without variety", () => {
    expect(
      fleissKappa([
        [P, P],
        [F, F],
        [N, N],
      ]),
    ).toBeCloseTo(1);
    // Two raters who always disagree between two answers: P̄ = 0, P̄e = ½ → κ = −1.
    expect(
      fleissKappa([
        [P, F],
        [F, P],
      ]),
    ).toBeCloseTo(-1);
    // Everyone always said "passed": chance explains everything, kappa is undefined.
    expect(
      fleissKappa([
        [P, P, P],
        [P, P, P],
      ]),
    ).toBeNull();
    expect(fleissKappa([[P]])).toBeNull();
    expect(fleissKappa([])).toBeNull();
    // Worked in docs/guides/calibration.md: κ = −8/52, and 1/6 with the machine as a fourth rater.
    const humans: Outcome[][] = [
      [P, P, P],
      [P, P, F],
      [P, P, P],
      [P, P, P],
      [P, P, F],
    ];
    expect(fleissKappa(humans)).toBeCloseTo(-8 / 52);
    expect(fleissKappa(humans.map((h) => [...h, h[2]!]))).toBeCloseTo(1 / 6);
  });

  test('answers missing after an early close are left out of alignment and agreement', () => {
    const r = calibrationResults({
      criteria: [{ key: 'greeting', label: 'Greeting' }],
      calls: [
        { callId: 'c1', machine: { greeting: P } },
        { callId: 'c2', machine: { greeting: F } },
      ],
      graders: [
        { userId: 'a', name: 'Ana', benchmark: false },
        { userId: 'b', name: 'Bea', benchmark: false },
        { userId: 'x', name: 'Xavi', benchmark: true },
      ],
      answers: [
        { callId: 'c1', userId: 'a', criterionKey: 'greeting', result: P },
        { callId: 'c1', userId: 'b', criterionKey: 'greeting', result: F },
        { callId: 'c2', userId: 'a', criterionKey: 'greeting', result: P },
        { callId: 'c1', userId: 'x', criterionKey: 'greeting', result: P },
      ],
    });
    // Ana: 1 of 1 with the benchmark (c2 has none); the majority exists only on c2 (Ana alone).
    expect(r.graders[0]).toMatchObject({ answered: 2, benchmarkMatches: 1, benchmarkCompared: 1, majorityCompared: 1 });
    expect(r.graders[1]).toMatchObject({ answered: 1, benchmarkAlignment: 0, majorityAlignment: null });
    // The machine: right on c1 against the benchmark, wrong on c2 against the majority.
    expect(r.machine).toMatchObject({ benchmarkAlignment: 1, majorityAlignment: 0 });
    // Only c1 was answered by both graders: they disagreed.
    expect(r.criteria[0]).toMatchObject({ calls: 1, percentAgreement: 0, percentAgreementWithMachine: 0 });
  });
});

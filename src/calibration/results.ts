/**
 * What a closed calibration shows (issue 31.1), computed from its answers; pure, so the numbers can
 * be checked by hand. Outcomes are passed / failed / na; a missing answer (a session closed early)
 * is left out of every comparison it would take part in.
 *
 * - Alignment of a grader: the share of their answers equal to the benchmark's (where both
 *   answered), and to the graders' majority (a strict majority of those who answered; no majority
 *   on a tie). The machine gets the same two figures, as if it were one more grader.
 * - Agreement of a criterion, over the calls every grader answered:
 *   - percent agreement: the share of those calls on which every grader gave the same answer;
 *   - Fleiss' kappa: agreement beyond what chance would give with these answer frequencies
 *     (1 = perfect, 0 = no better than chance, below 0 = worse). Undefined (null) when everyone
 *     always gave one and the same answer: there is nothing left for chance to explain.
 *   Both are also given with the machine counted as one more grader.
 */

export type Outcome = 'passed' | 'failed' | 'na';
const OUTCOMES: Outcome[] = ['passed', 'failed', 'na'];

export interface ResultsInput {
  criteria: { key: string; label: string }[];
  calls: { callId: string; machine: Record<string, Outcome> | null }[];
  graders: { userId: string; name: string; benchmark: boolean }[];
  answers: { callId: string; userId: string; criterionKey: string; result: Outcome }[];
}

export interface Cell {
  callId: string;
  criterionKey: string;
  answers: { userId: string; result: Outcome | null }[];
  benchmark: Outcome | null;
  majority: Outcome | null;
  machine: Outcome | null;
}

export interface Alignment {
  /** null for the machine. */
  userId: string | null;
  name: string;
  answered: number;
  benchmarkMatches: number;
  benchmarkCompared: number;
  /** matches / compared, 0–1; null when nothing could be compared. */
  benchmarkAlignment: number | null;
  majorityMatches: number;
  majorityCompared: number;
  majorityAlignment: number | null;
}

export interface CriterionAgreement {
  key: string;
  label: string;
  /** Calls every grader answered (what the two figures are over). */
  calls: number;
  percentAgreement: number | null;
  fleissKappa: number | null;
  percentAgreementWithMachine: number | null;
  fleissKappaWithMachine: number | null;
}

export interface CalibrationResults {
  cells: Cell[];
  graders: Alignment[];
  machine: Alignment;
  criteria: CriterionAgreement[];
}

/** The strict majority of some answers, or null (none, or a tie). */
export function majorityOf(results: readonly Outcome[]): Outcome | null {
  for (const o of OUTCOMES) if (results.filter((r) => r === o).length * 2 > results.length) return o;
  return null;
}

/**
 * Fleiss' kappa over items each rated by the same number n ≥ 2 of raters; null when undefined
 * (fewer than one item or two raters, or chance agreement of 1).
 */
export function fleissKappa(items: readonly (readonly Outcome[])[]): number | null {
  const n = items[0]?.length ?? 0;
  if (!items.length || n < 2 || items.some((i) => i.length !== n)) return null;
  const N = items.length;
  const totals = new Map<Outcome, number>();
  let pBar = 0;
  for (const item of items) {
    let sumSq = 0;
    for (const o of OUTCOMES) {
      const count = item.filter((r) => r === o).length;
      totals.set(o, (totals.get(o) ?? 0) + count);
      sumSq += count * count;
    }
    pBar += (sumSq - n) / (n * (n - 1));
  }
  pBar /= N;
  const pE = OUTCOMES.reduce((s, o) => s + ((totals.get(o) ?? 0) / (N * n)) ** 2, 0);
  if (pE >= 1) return null;
  return (pBar - pE) / (1 - pE);
}

const unanimousShare = (items: readonly (readonly Outcome[])[]) =>
  items.length ? items.filter((i) => i.every((r) => r === i[0])).length / items.length : null;

function alignment(userId: string | null, name: string, own: (c: Cell) => Outcome | null, cells: Cell[]): Alignment {
  let answered = 0;
  let bm = 0;
  let bc = 0;
  let mm = 0;
  let mc = 0;
  for (const cell of cells) {
    const mine = own(cell);
    if (!mine) continue;
    answered++;
    if (cell.benchmark) {
      bc++;
      if (cell.benchmark === mine) bm++;
    }
    if (cell.majority) {
      mc++;
      if (cell.majority === mine) mm++;
    }
  }
  return {
    userId,
    name,
    answered,
    benchmarkMatches: bm,
    benchmarkCompared: bc,
    benchmarkAlignment: bc ? bm / bc : null,
    majorityMatches: mm,
    majorityCompared: mc,
    majorityAlignment: mc ? mm / mc : null,
  };
}

export function calibrationResults(input: ResultsInput): CalibrationResults {
  const graders = input.graders.filter((g) => !g.benchmark);
  const benchmark = input.graders.find((g) => g.benchmark) ?? null;
  const answer = new Map(input.answers.map((a) => [`${a.callId}|${a.userId}|${a.criterionKey}`, a.result]));
  const cells: Cell[] = [];
  for (const call of input.calls) {
    for (const c of input.criteria) {
      const answers = graders.map((g) => ({
        userId: g.userId,
        result: answer.get(`${call.callId}|${g.userId}|${c.key}`) ?? null,
      }));
      cells.push({
        callId: call.callId,
        criterionKey: c.key,
        answers,
        benchmark: benchmark ? (answer.get(`${call.callId}|${benchmark.userId}|${c.key}`) ?? null) : null,
        majority: majorityOf(answers.flatMap((a) => (a.result ? [a.result] : []))),
        machine: call.machine?.[c.key] ?? null,
      });
    }
  }
  const criteria = input.criteria.map((c): CriterionAgreement => {
    const complete = cells
      .filter((cell) => cell.criterionKey === c.key && cell.answers.every((a) => a.result))
      .map((cell) => ({ humans: cell.answers.map((a) => a.result!), machine: cell.machine }));
    const humans = complete.map((x) => x.humans);
    const withMachine = complete.filter((x) => x.machine).map((x) => [...x.humans, x.machine!]);
    return {
      key: c.key,
      label: c.label,
      calls: complete.length,
      percentAgreement: graders.length >= 2 ? unanimousShare(humans) : null,
      fleissKappa: fleissKappa(humans),
      percentAgreementWithMachine: unanimousShare(withMachine),
      fleissKappaWithMachine: fleissKappa(withMachine),
    };
  });
  return {
    cells,
    graders: graders.map((g) =>
      alignment(g.userId, g.name, (cell) => cell.answers.find((a) => a.userId === g.userId)?.result ?? null, cells),
    ),
    machine: alignment(null, 'Machine', (cell) => cell.machine, cells),
    criteria,
  };
}

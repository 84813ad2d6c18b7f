// `npm run bench:sentiment`: agreement of the sentiment scorer (src/analysis/sentiment.ts) with
// hand-labelled contact-centre sentences, English and Spanish, next to two baselines measured in the
// same run: always answering the most common label, and the plain library (AFINN lexicon with its
// own one-word negation, no contact-centre additions).
//
// Two sets per language: sentiment-<lang>.tsv (125 sentences, written before the scorer's additions
// and then used while choosing them, so its figure is optimistic) and sentiment-<lang>-holdout.tsv
// (30 sentences written after the additions were frozen, never tuned on). Prints accuracy,
// macro-F1 and the confusion matrix; the goal is stated at the end. No network, no database.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { scoreText, type SentimentLabel, type SentimentLanguage } from '../../src/analysis/sentiment.ts';

const LABELS: SentimentLabel[] = ['negative', 'neutral', 'positive'];
const GOAL_ACCURACY = 0.75;
const here = import.meta.dirname;

interface Row {
  gold: SentimentLabel;
  text: string;
}

function load(file: string): Row[] {
  return readFileSync(path.join(here, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [gold, text] = line.split('\t');
      if (!LABELS.includes(gold as SentimentLabel) || !text) throw new Error(`${file}: bad line ${line}`);
      return { gold: gold as SentimentLabel, text };
    });
}

interface Agreement {
  accuracy: number;
  macroF1: number;
  /** confusion[gold][predicted] */
  confusion: Record<SentimentLabel, Record<SentimentLabel, number>>;
}

function agreement(rows: readonly Row[], predicted: readonly SentimentLabel[]): Agreement {
  const confusion = Object.fromEntries(
    LABELS.map((g) => [g, Object.fromEntries(LABELS.map((p) => [p, 0]))]),
  ) as Agreement['confusion'];
  for (const [i, row] of rows.entries()) confusion[row.gold][predicted[i]!]++;
  const correct = LABELS.reduce((sum, l) => sum + confusion[l][l], 0);
  const f1s = LABELS.map((l) => {
    const tp = confusion[l][l];
    const predictedL = LABELS.reduce((sum, g) => sum + confusion[g][l], 0);
    const goldL = LABELS.reduce((sum, p) => sum + confusion[l][p], 0);
    const precision = predictedL ? tp / predictedL : 0;
    const recall = goldL ? tp / goldL : 0;
    return precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  });
  return {
    accuracy: correct / rows.length,
    macroF1: f1s.reduce((a, b) => a + b, 0) / LABELS.length,
    confusion,
  };
}

function majority(rows: readonly Row[]): SentimentLabel {
  const counts = LABELS.map((l) => rows.filter((r) => r.gold === l).length);
  return LABELS[counts.indexOf(Math.max(...counts))]!;
}

const fmt = (n: number) => n.toFixed(3);
let missed = false;

for (const language of ['en', 'es'] as SentimentLanguage[]) {
  for (const [set, file] of [
    ['tuning set', `sentiment-${language}.tsv`],
    ['held-out set', `sentiment-${language}-holdout.tsv`],
  ] as const) {
    const rows = load(file);
    const most = majority(rows);
    const t0 = performance.now();
    const ours = rows.map((r) => scoreText(r.text, language).label);
    const ms = performance.now() - t0;
    const systems: [string, Agreement][] = [
      [
        `majority class (${most})`,
        agreement(
          rows,
          rows.map(() => most),
        ),
      ],
      [
        'plain library (AFINN)',
        agreement(
          rows,
          rows.map((r) => scoreText(r.text, language, { plain: true }).label),
        ),
      ],
      ['Escucha scorer', agreement(rows, ours)],
    ];
    const counts = LABELS.map((l) => `${rows.filter((r) => r.gold === l).length} ${l}`).join(', ');
    console.log(`\n${language.toUpperCase()} ${set}: ${rows.length} sentences (${counts}), ${file}`);
    console.log(`  ${'system'.padEnd(28)} accuracy  macro-F1`);
    for (const [name, a] of systems)
      console.log(`  ${name.padEnd(28)} ${fmt(a.accuracy).padStart(8)}  ${fmt(a.macroF1).padStart(8)}`);
    const mine = systems[2]![1];
    console.log(`  confusion of the Escucha scorer (rows gold, columns predicted):`);
    console.log(`  ${''.padEnd(10)}${LABELS.map((l) => l.padStart(10)).join('')}`);
    for (const g of LABELS)
      console.log(`  ${g.padEnd(10)}${LABELS.map((p) => String(mine.confusion[g][p]).padStart(10)).join('')}`);
    console.log(`  ${(ms / rows.length).toFixed(3)} ms a sentence`);
    if (mine.accuracy < GOAL_ACCURACY) missed = true;
  }
}

console.log(
  `\nGoal: accuracy ≥ ${GOAL_ACCURACY} on every set in both languages — ${missed ? 'MISSED on at least one set (see above)' : 'met'}.`,
);

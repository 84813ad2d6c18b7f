// One-off check for the second held-out set (holdout2-<lang>.tsv): drops any of its lines that is an
// exact or near duplicate (token Jaccard >= 0.8 after lower-casing and stripping punctuation and
// accents) of a line in any other sentiment set, so that holdout2 measures lines nobody tuned on.
// Mechanical on purpose: it never prints the other sets' lines, only how many of holdout2's were dropped
// (and which of holdout2's own lines), so the writer stays blind to them.
// `npx tsx scripts/sentiment-holdout2-dedupe.ts [--write]`
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.join(import.meta.dirname, '..');
const fixtures = path.join(root, 'test/fixtures/sentiment');
const bench = path.join(root, 'scripts/bench');
const write = process.argv.includes('--write');
const THRESHOLD = 0.8;

const normalise = (text: string): string[] =>
  text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);

const jaccard = (a: Set<string>, b: Set<string>): number => {
  let common = 0;
  for (const token of a) if (b.has(token)) common++;
  return common / (a.size + b.size - common || 1);
};

// Text is the last column of every set's rows (split, speaker, class, label, text); header rows skipped.
const texts = (file: string): string[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('split\t') && !line.startsWith('#'))
    .map((line) => line.split('\t').at(-1)!);

for (const language of ['en', 'es'] as const) {
  const others = [
    ...readdirSync(fixtures)
      .filter((f) => f.endsWith('.tsv') && !f.startsWith('holdout2-'))
      .map((f) => path.join(fixtures, f)),
    ...readdirSync(bench)
      .filter((f) => f.startsWith('sentiment-') && f.endsWith('.tsv'))
      .map((f) => path.join(bench, f)),
  ];
  // Both languages' sets are compared (a few lines mix languages; cheap to be thorough).
  const existing = others.flatMap(texts).map((t) => {
    const tokens = normalise(t);
    return { key: tokens.join(' '), set: new Set(tokens) };
  });
  const keys = new Set(existing.map((e) => e.key));
  const file = path.join(fixtures, `holdout2-${language}.tsv`);
  const [header, ...rows] = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const kept: string[] = [];
  let exact = 0;
  let near = 0;
  for (const row of rows) {
    const tokens = normalise(row.split('\t').at(-1)!);
    const set = new Set(tokens);
    if (keys.has(tokens.join(' '))) {
      exact++;
      console.log(`${language} drop (exact): ${row.split('\t').at(-1)}`);
      continue;
    }
    const best = Math.max(0, ...existing.map((e) => jaccard(set, e.set)));
    if (best >= THRESHOLD) {
      near++;
      console.log(`${language} drop (near, ${best.toFixed(2)}): ${row.split('\t').at(-1)}`);
      continue;
    }
    kept.push(row);
  }
  console.log(
    `${language}: ${rows.length} lines, ${existing.length} existing compared, dropped ${exact} exact + ${near} near, kept ${kept.length}`,
  );
  if (write) writeFileSync(file, `${[header, ...kept].join('\n')}\n`);
}

// Check a new sentiment set written blind (e.g. the held-out sets holdout2, holdout3: <set>-<lang>.tsv
// in test/fixtures/sentiment): drops any of its lines that is an exact or near duplicate (token
// Jaccard >= 0.8 after lower-casing and stripping punctuation and accents) of a line in any other
// sentiment set (every other test/fixtures/sentiment/*.tsv and scripts/bench/sentiment-*.tsv), so that
// the set measures lines nobody tuned on; also drops near duplicates inside the set itself, which would
// count one construction twice.
// Mechanical on purpose: it never prints the other sets' lines, only how many of the set's were dropped
// (and which of the set's own lines), so the writer stays blind to them.
// `npx tsx scripts/sentiment-dedupe.ts <set> [--write]`
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.join(import.meta.dirname, '..');
const fixtures = path.join(root, 'test/fixtures/sentiment');
const bench = path.join(root, 'scripts/bench');
const write = process.argv.includes('--write');
const SET = process.argv.slice(2).find((a) => !a.startsWith('--'));
if (!SET) throw new Error('usage: tsx scripts/sentiment-dedupe.ts <set> [--write]');
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

const others = [
  ...readdirSync(fixtures)
    .filter((f) => f.endsWith('.tsv') && !f.startsWith(`${SET}-`))
    .map((f) => path.join(fixtures, f)),
  ...readdirSync(bench)
    .filter((f) => f.startsWith('sentiment-') && f.endsWith('.tsv'))
    .map((f) => path.join(bench, f)),
];
// Both languages' sets are compared with each language (a few lines mix languages; cheap to be thorough).
const existing = others.flatMap(texts).map((t) => {
  const tokens = normalise(t);
  return { key: tokens.join(' '), set: new Set(tokens) };
});
const keys = new Set(existing.map((e) => e.key));

for (const language of ['en', 'es'] as const) {
  const file = path.join(fixtures, `${SET}-${language}.tsv`);
  const [header, ...rows] = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const kept: string[] = [];
  const keptSets: { text: string; set: Set<string> }[] = [];
  let exact = 0;
  let near = 0;
  let internal = 0;
  for (const row of rows) {
    const text = row.split('\t').at(-1)!;
    const tokens = normalise(text);
    const set = new Set(tokens);
    if (keys.has(tokens.join(' '))) {
      exact++;
      console.log(`${language} drop (exact): ${text}`);
      continue;
    }
    const best = Math.max(0, ...existing.map((e) => jaccard(set, e.set)));
    if (best >= THRESHOLD) {
      near++;
      console.log(`${language} drop (near, ${best.toFixed(2)}): ${text}`);
      continue;
    }
    const twin = keptSets.find((k) => jaccard(set, k.set) >= THRESHOLD);
    if (twin) {
      internal++;
      console.log(`${language} drop (near its own line "${twin.text}"): ${text}`);
      continue;
    }
    kept.push(row);
    keptSets.push({ text, set });
  }
  const perClass = new Map<string, number>();
  for (const row of kept) {
    const cls = row.split('\t')[2]!;
    perClass.set(cls, (perClass.get(cls) ?? 0) + 1);
  }
  console.log(
    `${language}: ${rows.length} lines, ${existing.length} existing compared, dropped ${exact} exact + ${near} near + ${internal} internal, kept ${kept.length}`,
  );
  console.log(`${language} kept per class: ${[...perClass].map(([c, n]) => `${c} ${n}`).join(', ')}`);
  if (write) writeFileSync(file, `${[header, ...kept].join('\n')}\n`);
}

// Writes scripts/sentiment-blind-first-readings.json: for each blind set (holdout2 to holdout9), the
// hand-written rules' reading of each of its lines as the rules stood at that set's one reading,
// before anything was written from it (the commits below). `npm run sentiment:train -- --lowo`
// combines them with a model trained without that set: the honest reading of rules + model on a
// writer neither has seen. The rules of each commit are taken with `git archive` into a temporary
// directory and run there on today's files of the set (the lines are the same):
//   npx tsx scripts/sentiment-blind-first-readings.ts
// Each line is coded as its label's first letter (n, u for neutral, p) followed by the courtesy, firm,
// set-aside and vouched flags, 0 or 1.
import { execFileSync, execSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The commit each blind set was read once with (docs/benchmarks/sentiment.md, "Against the goals"). */
export const READ_AT: Record<string, string> = {
  holdout2: '288a7b2',
  holdout3: '9241225',
  holdout4: '9b8d336',
  holdout5: '898ec12',
  holdout6: '8b14778',
  holdout7: '7ae0304',
  holdout8: '0479dd8',
  holdout9: 'ac52347',
};

const root = path.join(import.meta.dirname, '..');
const fixtures = path.join(root, 'test/fixtures/sentiment');
const OUT = path.join(import.meta.dirname, 'sentiment-blind-first-readings.json');

interface Reading {
  label: 'negative' | 'neutral' | 'positive';
  courtesy?: boolean;
  firm?: boolean;
  setAside?: boolean;
  vouched?: boolean;
}

const [set, dir] = process.argv.slice(2);
if (set && dir) {
  // Child: the rules of one commit, on one set.
  const { readRules } = (await import(pathToFileURL(path.join(dir, 'src/analysis/sentiment.ts')).href)) as {
    readRules: (text: string, language: 'en' | 'es') => Reading;
  };
  const out: Record<string, string[]> = {};
  for (const language of ['en', 'es'] as const)
    out[language] = readFileSync(path.join(fixtures, `${set}-${language}.tsv`), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith(`${set}\t`))
      .map((line) => {
        const r = readRules(line.split('\t')[4]!, language);
        const bit = (b?: boolean) => (b ? '1' : '0');
        return `${r.label === 'neutral' ? 'u' : r.label[0]}${bit(r.courtesy)}${bit(r.firm)}${bit(r.setAside)}${bit(r.vouched)}`;
      });
  process.stdout.write(JSON.stringify(out));
} else {
  const all: Record<string, Record<string, string[]>> = { en: {}, es: {} };
  for (const [name, commit] of Object.entries(READ_AT)) {
    const tmp = mkdtempSync(path.join(tmpdir(), `senti-${name}-`));
    try {
      execSync(`git -C ${JSON.stringify(root)} archive ${commit} src package.json | tar -x -C ${JSON.stringify(tmp)}`);
      symlinkSync(path.join(root, 'node_modules'), path.join(tmp, 'node_modules'));
      const out = JSON.parse(
        execFileSync(process.execPath, [...process.execArgv, import.meta.filename, name, tmp], { encoding: 'utf8' }),
      ) as Record<string, string[]>;
      for (const language of ['en', 'es']) all[language]![name] = out[language]!;
      console.log(`${name} at ${commit}: ${out.en!.length} EN, ${out.es!.length} ES lines`);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  writeFileSync(OUT, `${JSON.stringify(all, null, 1)}\n`);
}

// CPU a line of the sentiment scorer (rules and model, src/analysis/sentiment.ts readText) over the
// tune half and the probe set, best of 15 passes after one warm-up pass, in one process:
//   npx tsx scripts/bench/sentiment-cpu.ts [worktree …]
// With several worktrees (say a baseline checkout of main and a branch), each is measured in its own
// child process, in the order given; repeat the list to alternate them within one run
// (docs/benchmarks/sentiment.md, "Cost"). The held-out half is never read.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const roots = process.argv.slice(2);
if (roots.length > 1) {
  for (const root of roots)
    process.stdout.write(
      execFileSync(process.execPath, [...process.execArgv, import.meta.filename, path.resolve(root)], {
        encoding: 'utf8',
      }),
    );
} else {
  const root = path.resolve(roots[0] ?? path.join(import.meta.dirname, '../..'));
  const { readText } = (await import(pathToFileURL(path.join(root, 'src/analysis/sentiment.ts')).href)) as {
    readText: (text: string, language: 'en' | 'es') => unknown;
  };
  const fixtures = path.join(root, 'test/fixtures/sentiment');
  const out: string[] = [];
  for (const language of ['en', 'es'] as const) {
    const lines: string[] = [];
    for (const file of ['', 'probe-', 'probe4-', 'probe5-', 'probe6-'])
      for (const row of readFileSync(path.join(fixtures, `${file}${language}.tsv`), 'utf8').split('\n')) {
        const [split, , , , text] = row.split('\t');
        if ((split === 'tune' || split === 'probe') && text) lines.push(text);
      }
    for (const text of lines) readText(text, language);
    let best = Number.POSITIVE_INFINITY;
    for (let pass = 0; pass < 15; pass++) {
      const start = process.cpuUsage();
      for (const text of lines) readText(text, language);
      const used = process.cpuUsage(start);
      best = Math.min(best, (used.user + used.system) / 1000 / lines.length);
    }
    out.push(`${language} ${lines.length} lines ${best.toFixed(4)} ms CPU a line`);
  }
  console.log(`${root}  ${out.join('  ')}`);
}

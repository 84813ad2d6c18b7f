// `npm test` runs this: no import cycle between modules, nor between areas. An area is a folder of
// src (src/http, src/intake, src/web …, with its subfolders), or schema, workers or scripts; a file
// directly in src (config.ts, log.ts, main.ts, context.ts) is an area of its own. workers/ holds the
// job adapters, and nothing in src imports it except src/service, which starts the worker role
// (workers/start.ts); the job catalog they share is src/jobs/catalog.ts, at the bottom. Areas are
// layered by value imports (a type-only import does not load the other area); between modules, type
// imports count too. Fix a cycle by moving the shared piece down, or by injecting it from the entry
// point (see docs/development/architecture.md).
import { cruise, type ICruiseResult } from 'dependency-cruiser';

const ROOTS = ['src', 'schema', 'workers', 'scripts'];

export function areaOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'src') return parts.length > 2 ? `src/${parts[1]}` : file;
  return parts[0]!;
}

/** Strongly connected components of more than one area (Tarjan). */
export function areaCycles(edges: Map<string, Set<string>>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of edges.keys()) if (!idx.has(v)) visit(v);
  return out;
}

async function main() {
  const { output } = await cruise(ROOTS, {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/generated/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    validate: true,
    ruleSet: {
      forbidden: [
        { name: 'no-module-cycles', severity: 'error', from: {}, to: { circular: true } },
        {
          name: 'src-does-not-import-the-adapters',
          severity: 'error',
          from: { path: '^src/', pathNot: '^src/service/' },
          to: { path: '^workers/' },
        },
        {
          name: 'service-starts-the-worker-role',
          severity: 'error',
          from: { path: '^src/service/' },
          to: { path: '^workers/', pathNot: '^workers/start\\.ts$' },
        },
      ],
    },
  });
  const result = output as ICruiseResult;
  const problems: string[] = [];
  for (const v of result.summary.violations) {
    const path = v.cycle?.length ? [v.from, ...v.cycle.map((c) => c.name)] : [v.from, v.to];
    problems.push(`${v.rule.name}: ${path.join(' → ')}`);
  }
  const edges = new Map<string, Set<string>>();
  const examples = new Map<string, string>();
  for (const m of result.modules) {
    if (!ROOTS.some((r) => m.source.startsWith(`${r}/`))) continue;
    for (const d of m.dependencies) {
      if (d.coreModule || !ROOTS.some((r) => d.resolved.startsWith(`${r}/`))) continue;
      // Areas are layered by what runs: a type-only import (AppContext naming the caches it carries)
      // does not make two areas load each other. Module cycles above still count types.
      if (d.dependencyTypes.includes('type-only')) continue;
      const [a, b] = [areaOf(m.source), areaOf(d.resolved)];
      if (a === b) continue;
      if (!edges.has(a)) edges.set(a, new Set());
      edges.get(a)!.add(b);
      examples.set(`${a}>${b}`, `${m.source} → ${d.resolved}`);
    }
  }
  for (const scc of areaCycles(edges)) {
    const inside = new Set(scc);
    const links = scc.flatMap((a) =>
      [...(edges.get(a) ?? [])].filter((b) => inside.has(b)).map((b) => `    ${examples.get(`${a}>${b}`)}`),
    );
    problems.push(`area cycle between ${scc.join(', ')}:\n${links.join('\n')}`);
  }
  if (process.argv.includes('--graph')) {
    // The area graph (value imports) as a mermaid flowchart, for docs/development/architecture.md.
    const lines = [...edges].flatMap(([a, bs]) =>
      [...bs].sort().map((b) => `  ${JSON.stringify(a)} --> ${JSON.stringify(b)}`),
    );
    console.log(['flowchart TD', ...lines.sort()].join('\n'));
  }
  if (problems.length) {
    console.error(`Import cycles (scripts/check-cycles.ts):\n${problems.join('\n')}`);
    process.exit(1);
  }
  console.log(`No import cycles (${result.summary.totalCruised} modules).`);
}

if (import.meta.main) await main();

// workers/ is the adapters' folder (docs/development/architecture.md): each file turns a job into one
// call of a feature's use-case, so the pipeline has one home (src/calls, src/webhooks, src/ops …) and
// a newcomer never finds logic in two conventions. This reads the files themselves.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from '../support/harness.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WORKERS = path.join(ROOT, 'workers');
const MAX_LINES = 40;
/** Folders whose modules are features' use-cases (the one an adapter may call). */
const FEATURES = ['calls', 'review', 'reports', 'export', 'webhooks', 'ops', 'intake', 'accounts'];

interface Import {
  specifier: string;
  typeOnly: boolean;
}

function importsOf(source: string): Import[] {
  const found: Import[] = [];
  for (const m of source.matchAll(/^(?:import|export)\s+(type\s+)?(?:[\s\S]*?\s+from\s+)?'([^']+)';/gm)) {
    const names = m[0].match(/\{([\s\S]*)\}/)?.[1];
    // `import { type A, type B }` loads nothing either.
    const allTypes = names?.split(',').every((n) => !n.trim() || n.trim().startsWith('type ')) ?? false;
    found.push({ specifier: m[2]!, typeOnly: Boolean(m[1]) || allTypes });
  }
  return found;
}

/** What a value import of an adapter is: the catalog or toolkit, another adapter, a use-case, or a stranger. */
function kindOf(specifier: string): 'toolkit' | 'adapter' | 'use-case' | 'other' {
  if (specifier.startsWith('../src/jobs/')) return 'toolkit';
  if (/^\.\/[^/]+\.ts$/.test(specifier)) return 'adapter';
  const feature = specifier.match(/^\.\.\/src\/([^/]+)\//)?.[1];
  if (feature && FEATURES.includes(feature)) return 'use-case';
  return 'other';
}

const files = readdirSync(WORKERS).filter((f) => f.endsWith('.ts'));

describe('workers/ holds adapters only', () => {
  test('the folder has its adapters, the task list and the role', () => {
    expect(files).toContain('index.ts');
    expect(files).toContain('transcribe.ts');
    expect(files).toContain('analyze.ts');
  });

  test.each(files)('workers/%s is at most 40 lines', (file) => {
    const lines = readFileSync(path.join(WORKERS, file), 'utf8').trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(MAX_LINES);
  });

  test.each(files)('workers/%s loads only the catalog, the worker toolkit and one use-case module', (file) => {
    const values = importsOf(readFileSync(path.join(WORKERS, file), 'utf8')).filter((i) => !i.typeOnly);
    expect(values.filter((i) => kindOf(i.specifier) === 'other').map((i) => i.specifier)).toEqual([]);
    expect(values.filter((i) => kindOf(i.specifier) === 'use-case').length).toBeLessThanOrEqual(1);
  });

  test('the rule sees a stranger: an engine or the database imported by an adapter is refused', () => {
    const source = [
      "import type { AppContext } from '../src/context.ts';",
      "import { transition } from '../src/lifecycle/transition.ts';",
      "import {\n  task,\n} from '../src/jobs/catalog.ts';",
      "import { type Db } from '../src/db/client.ts';",
      "import { runReplay } from '../src/webhooks/replay.ts';",
    ].join('\n');
    const values = importsOf(source).filter((i) => !i.typeOnly);
    expect(values.map((i) => [i.specifier, kindOf(i.specifier)])).toEqual([
      ['../src/lifecycle/transition.ts', 'other'],
      ['../src/jobs/catalog.ts', 'toolkit'],
      ['../src/webhooks/replay.ts', 'use-case'],
    ]);
  });
});

// Issue 9 point 4: every environment variable the service and its operator commands read is in the
// configuration table (docs/operations/configuration.md), and every variable in the table is read by the code.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
// Not configuration: the search path for programs (FFMPEG_PATH / FFPROBE_PATH say which to use).
const NOT_CONFIG = new Set(['PATH']);

function sources(): string[] {
  const files: string[] = [];
  for (const dir of ['src', 'workers']) {
    for (const entry of readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })) {
      const file = path.join(entry.parentPath, entry.name);
      const rel = path.relative(root, file);
      // Generated code and the browser app (built by Vite, no environment at run time) read nothing.
      if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /^src\/(generated|web)\//.test(rel)) continue;
      files.push(file);
    }
  }
  // The operator's commands beside the service.
  for (const script of ['cli.ts', 'migrate.ts', 'models-fetch.ts']) files.push(path.join(root, 'scripts', script));
  return files;
}

function readByCode(): Set<string> {
  const names = new Set<string>();
  for (const file of sources()) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\b(?:process\.env|env|source)\.([A-Z][A-Z0-9_]+)\b/g)) names.add(m[1]!);
    // The zod schema of src/config.ts: `  NAME: z…`.
    if (file.endsWith(path.join('src', 'config.ts')))
      for (const m of text.matchAll(/^ {2}([A-Z][A-Z0-9_]+): (?:z\b|bool\b)/gm)) names.add(m[1]!);
  }
  for (const n of NOT_CONFIG) names.delete(n);
  return names;
}

function inReadmeTable(): Set<string> {
  const section = readFileSync(path.join(root, 'docs/operations/configuration.md'), 'utf8');
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    const first = /^\|([^|]+)\|/.exec(line)?.[1] ?? '';
    for (const m of first.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(m[1]!);
  }
  return names;
}

it('the configuration table of the docs lists exactly the environment variables the code reads', () => {
  const code = readByCode();
  const readme = inReadmeTable();
  expect(code.size).toBeGreaterThan(25);
  expect([...code].filter((n) => !readme.has(n)).sort()).toEqual([]);
  expect([...readme].filter((n) => !code.has(n)).sort()).toEqual([]);
});

// The docs are the product's manual: every link between them resolves (file and heading), the README stays a
// front page, and no file of the project refers to a file outside the repository.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const tracked = (...patterns: string[]) =>
  execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...patterns], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((f) => f && existsSync(path.join(root, f)));
const markdown = tracked('README.md', 'docs/**/*.md', 'src/**/*.md');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n ? `${slug}-${n}` : slug);
  }
  return out;
}

describe('docs', () => {
  it('every relative link of README.md and docs/ resolves to a file and, with #, to a heading of it', () => {
    const broken: string[] = [];
    for (const file of markdown) {
      const text = readFileSync(path.join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        const [rel, anchor] = target!.split('#') as [string, string | undefined];
        const resolved = rel ? path.resolve(root, path.dirname(file), rel) : path.join(root, file);
        if (!existsSync(resolved)) broken.push(`${file}: ${target} (no such file)`);
        else if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(anchor))
          broken.push(`${file}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the README is a front page: at most about 150 lines, linking every folder of docs/', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
    for (const folder of ['api', 'guides', 'operations', 'development', 'benchmarks'])
      expect(readme).toContain(`](docs/${folder}/README.md)`);
  });

  it('each benchmark script has its page, and the benchmarks index lists it', () => {
    const scripts = Object.keys(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts);
    const index = readFileSync(path.join(root, 'docs/benchmarks/README.md'), 'utf8');
    for (const name of scripts.filter((s) => s.startsWith('bench:'))) {
      const page = `docs/benchmarks/${name.slice('bench:'.length)}.md`;
      expect(existsSync(path.join(root, page)), page).toBe(true);
      expect(index, name).toContain(`\`${name}\``);
    }
  });

  it('no file of the project refers to a file outside the repository', () => {
    const files = tracked('src', 'schema', 'workers', 'scripts', 'test', 'prisma', 'docs', 'README.md', 'package.json');
    const outside = files.filter((f) => {
      if (f === 'test/docs/links.test.ts' || (/\.(txt|tsv|wav|json)$/.test(f) && f.startsWith('test/fixtures')))
        return false;
      return /\.\.\/shared\b|shared\/(spec|models)|(?<![\w/-])PRODUCT\.md/.test(
        readFileSync(path.join(root, f), 'utf8'),
      );
    });
    expect(outside).toEqual([]);
  });
});

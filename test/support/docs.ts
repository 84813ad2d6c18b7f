/**
 * The documentation as a reader finds it: README.md and every page under docs/. Tests that run or
 * compare what the docs show look a section up by its heading, wherever the page it lives on.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './process.ts';

function pages(): string[] {
  const docs = path.join(repoRoot, 'docs');
  const found = existsSync(docs)
    ? readdirSync(docs, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.md') && !f.startsWith('_incoming'))
        .map((f) => path.join(docs, f))
    : [];
  return [path.join(repoRoot, 'README.md'), ...found];
}

export interface DocSection {
  /** The page, relative to the repository. */
  file: string;
  /** From the heading line to the next heading of the same or a higher level. */
  text: string;
}

/** The one section whose heading is `heading` (any level, without the #s); throws when none or several. */
export function docSection(heading: string): DocSection {
  const hits: DocSection[] = [];
  for (const file of pages()) {
    const lines = readFileSync(file, 'utf8').split('\n');
    // Heading level per line; 0 for text and for everything inside fenced code (a shell comment is no heading).
    let fenced = false;
    const levels = lines.map((line) => {
      if (line.startsWith('```')) fenced = !fenced;
      return fenced ? 0 : (/^(#+)\s/.exec(line)?.[1]?.length ?? 0);
    });
    lines.forEach((line, i) => {
      const level = levels[i]!;
      if (!level || line.slice(level).trim() !== heading) return;
      const end = levels.findIndex((l, j) => j > i && l > 0 && l <= level);
      hits.push({ file: path.relative(repoRoot, file), text: lines.slice(i, end < 0 ? undefined : end).join('\n') });
    });
  }
  if (hits.length !== 1)
    throw new Error(
      `expected one "${heading}" section in the docs, found ${hits.map((h) => h.file).join(', ') || 'none'}`,
    );
  return hits[0]!;
}

/** The fenced code blocks of a section whose info string is `lang`, in order. */
export function codeBlocks(section: DocSection, lang: string): string[] {
  const blocks: string[] = [];
  const fence = new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm');
  for (const m of section.text.matchAll(fence)) blocks.push(m[1]!);
  return blocks;
}

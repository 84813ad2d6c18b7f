import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { NONE, STATUSES, TRANSITIONS } from '../../src/lifecycle/statuses.ts';

/** The arrows of the state diagram of docs/guides/processing.md (its mermaid block), `[*]` read as none. */
function readmeArrows(): string[] {
  const readme = readFileSync(new URL('../../docs/guides/processing.md', import.meta.url), 'utf8');
  const block = /# Processing[\s\S]*?```mermaid\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('docs/guides/processing.md: no mermaid state diagram');
  return [...block.matchAll(/^\s*(\S+)\s*-->\s*([a-z_]+)\b/gm)].map(
    ([, from, to]) => `${from === '[*]' ? NONE : from} → ${to}`,
  );
}

test('the documented state diagram is the transition table, arrow for arrow', () => {
  const table = Object.entries(TRANSITIONS).flatMap(([from, tos]) => tos.map((to) => `${from} → ${to}`));
  expect(readmeArrows().sort()).toEqual(table.sort());
});

test('every status is reachable from intake and named in the diagram', () => {
  const reached = new Set<string>([NONE]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [from, tos] of Object.entries(TRANSITIONS))
      for (const to of tos) if (reached.has(from) && !reached.has(to)) grew = reached.add(to) !== null;
  }
  expect([...reached].filter((s) => s !== NONE).sort()).toEqual(Object.keys(STATUSES).sort());
});

import type { Db } from '../db/client.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { foldAccents } from '../domain/text.ts';

/** A last word shorter than this matches whole words only: "re" would expand to thousands of words. */
const PREFIX_MIN = 3;

/**
 * The tsquery of a search box's text: web-search syntax ("exact phrase", -excluded, or), folded
 * like search_text (case and accents), with the last word also matching as a prefix while it is
 * being typed ("refun" finds "refund"). Null when there is nothing to search for.
 */
export function searchTsquery(search: string | null | undefined): Prisma.Sql | null {
  const text = search ? foldAccents(search).trim() : '';
  if (!text) return null;
  const last = /(^|\s)([\p{L}\p{N}]+)$/u.exec(text);
  const quotesClosed = (text.match(/"/g)?.length ?? 0) % 2 === 0;
  if (!last || !quotesClosed || last[2]!.length < PREFIX_MIN || last[2] === 'or') {
    return Prisma.sql`websearch_to_tsquery('simple', ${text})`;
  }
  const word = last[2]!;
  // Letters and digits only, so `word:*` is a valid to_tsquery term whatever the user typed.
  const prefix = Prisma.sql`to_tsquery('simple', ${`${word}:*`})`;
  let rest = text.slice(0, last.index).trim();
  const or = /(^|\s)or$/.exec(rest);
  if (or) rest = rest.slice(0, or.index).trim();
  if (!rest) return prefix;
  const head = Prisma.sql`websearch_to_tsquery('simple', ${rest})`;
  return or ? Prisma.sql`(${head} || ${prefix})` : Prisma.sql`(${head} && ${prefix})`;
}

/** Words of a search worth highlighting (no operators, no excluded terms), folded. */
export function searchTerms(search: string): string[] {
  const out: string[] = [];
  for (const m of foldAccents(search).matchAll(/(-?)"([^"]+)"|(-?)(\S+)/g)) {
    if (m[1] === '-' || m[3] === '-') continue;
    const term = (m[2] ?? m[4] ?? '').replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    if (term && term !== 'or') out.push(term);
  }
  return out;
}

export interface SearchSnippet {
  /** The transcript line, as said (original case and accents). */
  text: string;
  start: number;
  end: number;
  speaker: string;
  /** Where the searched words start in `text` (UTF-16 offsets, end exclusive). */
  highlights: { start: number; end: number }[];
}

// Accented letters of the languages we transcribe; enough for a snippet to find its line in SQL
// (the authoritative, complete folding is search_text's, done by the app).
const FOLD_FROM = 'áàâäãåéèêëíìîïóòôöõúùûüñçÁÀÂÄÃÅÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÑÇ';
const FOLD_TO = 'aaaaaaeeeeiiiiooooouuuuncaaaaaaeeeeiiiiooooouuuunc';

/**
 * For each call (of the account) the first transcript line matching the search, with the searched
 * words marked: what the list shows under a search result. One query for the whole page.
 */
export async function searchSnippets(
  db: Db,
  accountId: string,
  ids: string[],
  search: string,
): Promise<Map<string, SearchSnippet>> {
  const query = searchTsquery(search);
  const out = new Map<string, SearchSnippet>();
  if (!query || !ids.length) return out;
  const rows = await db.$queryRaw<
    { id: string; seg: { text?: unknown; start?: unknown; end?: unknown; speaker?: unknown } }[]
  >`
    SELECT c.id, s.seg
      FROM calls c
     CROSS JOIN LATERAL (
       SELECT e.seg FROM jsonb_array_elements(CASE WHEN jsonb_typeof(c.segments) = 'array' THEN c.segments ELSE '[]' END)
                         WITH ORDINALITY AS e (seg, i)
        WHERE to_tsvector('simple', translate(lower(e.seg->>'text'), ${FOLD_FROM}, ${FOLD_TO})) @@ ${query}
        ORDER BY e.i LIMIT 1) s
     WHERE c.account_id = ${accountId}::uuid AND c.id = ANY(${ids}::uuid[])`;
  const terms = searchTerms(search);
  for (const { id, seg } of rows) {
    const text = typeof seg.text === 'string' ? seg.text : '';
    out.set(id, {
      text,
      start: Number(seg.start) || 0,
      end: Number(seg.end) || 0,
      speaker: typeof seg.speaker === 'string' ? seg.speaker : 'speaker',
      highlights: highlightRanges(text, terms),
    });
  }
  return out;
}

/** Words starting with a term (so prefixes count), ignoring case and accents. */
export function highlightRanges(text: string, terms: string[]): { start: number; end: number }[] {
  const folded = foldAccents(text);
  // Folding changes lengths only for rare characters; offsets would then be wrong, so mark nothing.
  if (folded.length !== text.length || !terms.length) return [];
  const ranges: { start: number; end: number }[] = [];
  for (const term of terms) {
    for (let i = folded.indexOf(term); i !== -1; i = folded.indexOf(term, i + 1)) {
      if (i > 0 && /[\p{L}\p{N}]/u.test(folded[i - 1]!)) continue;
      // The whole word is marked: "refun" marks "refund".
      let end = i + term.length;
      while (end < folded.length && /[\p{L}\p{N}]/u.test(folded[end]!)) end++;
      ranges.push({ start: i, end });
    }
  }
  ranges.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: { start: number; end: number }[] = [];
  for (const r of ranges) {
    const prev = merged.at(-1);
    if (prev && r.start <= prev.end) prev.end = Math.max(prev.end, r.end);
    else merged.push({ ...r });
  }
  return merged;
}

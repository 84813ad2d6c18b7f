import { DomainError } from './errors.ts';

/** Lower case without accents: "José Peña" → "jose pena". */
export function foldAccents(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/** Telephony codes match ignoring case, hyphens, underscores and spaces (intake document §2). */
export function normalizeCode(code: string): string {
  return code.toLowerCase().replace(/[-_\s]+/g, '');
}

/** Agent and campaign names match ignoring case, accents and spacing ("Ana  María" = "anamaria"). */
export function normalizeName(name: string): string {
  return foldAccents(name).replace(/\s+/g, '');
}

/** Cuts to `max` code points without splitting a character (surrogate pairs stay whole). */
export function truncate(value: string, max: number): string {
  const chars = Array.from(value);
  return chars.length <= max ? value : chars.slice(0, max).join('');
}

/** Removes control characters (NUL breaks PostgreSQL text; the others are never meaningful in a field). */
export function stripControls(value: string): string {
  return value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '');
}

// --- Text hygiene: the one check every text from outside passes before it reaches the database. ---

/** NUL breaks PostgreSQL text; an unpaired surrogate is not Unicode and cannot be stored as UTF-8. */
export function textProblem(value: string): string | null {
  if (value.includes('\u0000')) return 'a NUL character';
  if (!value.isWellFormed()) return 'an unpaired surrogate (broken Unicode)';
  return null;
}

/** `invalid_text` (REST 400, GraphQL ValidationError) naming the field in its message and details. */
export function invalidText(field: string, problem: string): DomainError {
  return new DomainError('invalid_text', `\`${field}\` contains ${problem}; send valid Unicode text without NUL.`, {
    field,
  });
}

export function assertCleanText(value: string, field: string): void {
  const problem = textProblem(value);
  if (problem) throw invalidText(field, problem);
}

/** The first unclean string (key or value) anywhere inside a JSON-like value, with its path. */
export function findUncleanText(value: unknown, path: string): { field: string; problem: string } | null {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? { field: path, problem } : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUncleanText(value[i], `${path}.${i}`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const found = findUncleanText(k, `${path}.${k}`) ?? findUncleanText(v, `${path}.${k}`);
      if (found) return found;
    }
  }
  return null;
}

/** Levenshtein distance (characters of a string, or items of a list) with a single rolling row. */
export function levenshtein<T>(a: ArrayLike<T>, b: ArrayLike<T>): number {
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

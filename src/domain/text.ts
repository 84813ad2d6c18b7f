/** Lower case without accents: "José Peña" → "jose pena". */
export function foldAccents(s: string): string {
  return s.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
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

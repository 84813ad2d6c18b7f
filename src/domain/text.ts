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

/**
 * Previous/next call on the call page: the calls list remembers the ids it shows (in this tab's
 * sessionStorage, so two tabs keep their own lists) and the call page steps through them.
 */
const KEY = 'escucha.callList';

export interface RememberedList {
  ids: string[];
  /** The list's query string, to go back to the same filtered page. */
  search: string;
}

export function rememberCallList(list: RememberedList): void {
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify(list));
  } catch {
    // storage disabled: no previous/next, nothing else lost
  }
}

export function recallCallList(): RememberedList | null {
  try {
    const v = JSON.parse(window.sessionStorage.getItem(KEY) ?? 'null') as RememberedList | null;
    return v && Array.isArray(v.ids) && typeof v.search === 'string' ? v : null;
  } catch {
    return null;
  }
}

/** The ids before and after `id` in a list (null at either end or when the call is not in it). */
export function neighbours(ids: readonly string[], id: string): { prev: string | null; next: string | null } {
  const i = ids.indexOf(id);
  if (i < 0) return { prev: null, next: null };
  return { prev: ids[i - 1] ?? null, next: ids[i + 1] ?? null };
}

/** A small history-API router: the app has a dozen flat routes, which do not need a library. */
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';

const listeners = new Set<() => void>();
const notify = () => {
  for (const l of listeners) l();
};

/**
 * A page with unsaved work registers a guard: it is asked before any in-app navigation (links,
 * `navigate`, the browser's back and forward buttons) and returns false to stay. Tab close and
 * reload are the page's own `beforeunload` business.
 */
type Guard = () => boolean;
let guard: Guard | null = null;
/** The location shown, so a refused back/forward can be undone. */
let current = typeof window === 'undefined' ? '/' : window.location.pathname + window.location.search;

export function setNavigationGuard(g: Guard | null): () => void {
  guard = g;
  return () => {
    if (guard === g) guard = null;
  };
}

function onPopState() {
  const to = window.location.pathname + window.location.search;
  if (guard && to !== current && !guard()) {
    // The browser already moved; put the page's address back without leaving it.
    window.history.pushState(null, '', current);
    return;
  }
  current = to;
  notify();
}
if (typeof window !== 'undefined') window.addEventListener('popstate', onPopState);

function subscribe(l: () => void) {
  listeners.add(l);
  return () => void listeners.delete(l);
}

const snapshot = () => (typeof window === 'undefined' ? '/' : window.location.pathname + window.location.search);

export interface Location {
  pathname: string;
  search: string;
}

export function useLocation(): Location {
  const href = useSyncExternalStore(subscribe, snapshot, () => '/');
  const i = href.indexOf('?');
  return i === -1 ? { pathname: href, search: '' } : { pathname: href.slice(0, i), search: href.slice(i) };
}

export function navigate(to: string, opts: { replace?: boolean; force?: boolean } = {}): void {
  if (to === snapshot()) return;
  if (guard && !opts.force && !guard()) return;
  current = to;
  if (opts.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  if (!opts.replace) window.scrollTo({ top: 0 });
  notify();
}

/** `/calls/:id` against `/calls/42` → `{ id: '42' }`; null when it does not match. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const p = pattern.split('/').filter(Boolean);
  const s = pathname.split('/').filter(Boolean);
  if (p.length !== s.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    const part = p[i]!;
    if (part.startsWith(':')) {
      try {
        params[part.slice(1)] = decodeURIComponent(s[i]!);
      } catch {
        return null;
      }
    } else if (part !== s[i]) return null;
  }
  return params;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: string;
  replace?: boolean;
  children?: ReactNode;
};

export function Link({ to, replace, onClick, ...rest }: LinkProps) {
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (
      e.defaultPrevented ||
      e.button !== 0 ||
      e.metaKey ||
      e.ctrlKey ||
      e.shiftKey ||
      e.altKey ||
      rest.target === '_blank'
    )
      return;
    e.preventDefault();
    navigate(to, { replace });
  };
  return <a href={to} onClick={handle} {...rest} />;
}

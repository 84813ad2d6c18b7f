/**
 * A page may name its browser tab more precisely than its route does ("María López · Escucha"
 * rather than "Call · Escucha"): App provides the setter, pages call useDocumentTitle.
 */
import { createContext, useContext, useEffect } from 'react';

export const PageTitleContext = createContext<(title: string | null) => void>(() => {});

/** While the calling page is shown, its tab reads `title · Escucha` (null keeps the route's title). */
export function useDocumentTitle(title: string | null): void {
  const set = useContext(PageTitleContext);
  useEffect(() => {
    set(title);
    return () => set(null);
  }, [title, set]);
}

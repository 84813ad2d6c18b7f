/**
 * English and Spanish UI text. `es` is typed as `Record<MessageKey, string>`, so a key missing from
 * either language fails the type check (and test/web/i18n.test.ts checks placeholders match).
 * The language comes from a saved choice, else the browser (Spanish for any `es-*`), else English.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { en } from './en.ts';
import { es } from './es.ts';

export type Lang = 'en' | 'es';
export const LANGS: readonly Lang[] = ['en', 'es'];
export type MessageKey = keyof typeof en;
export type Vars = Record<string, string | number>;
export const dictionaries: Record<Lang, Record<MessageKey, string>> = { en, es };
const STORAGE_KEY = 'escucha.lang';

export function detectLanguage(stored: string | null | undefined, browser: readonly string[]): Lang {
  if (stored === 'en' || stored === 'es') return stored;
  for (const tag of browser) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'es') return 'es';
    if (base === 'en') return 'en';
  }
  return 'en';
}

export function interpolate(text: string, vars?: Vars): string {
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}

/** A `{n}` of exactly 1 picks the `<key>_one` variant when there is one ("1 call", "1 llamada"). */
export function translate(lang: Lang, key: MessageKey, vars?: Vars): string {
  const dict = dictionaries[lang];
  const one = `${key}_one`;
  if (vars && String(vars.n) === '1' && one in dict) return interpolate(dict[one as MessageKey], vars);
  return interpolate(dict[key] ?? en[key] ?? key, vars);
}

/** True when `key` is a message key (for codes coming from the API, e.g. `errors.seat_limit`). */
export function hasKey(key: string): key is MessageKey {
  return key in en;
}

export interface I18n {
  lang: Lang;
  /** BCP 47 locale for Intl formatting. */
  locale: string;
  setLang(lang: Lang): void;
  t(key: MessageKey, vars?: Vars): string;
}

const I18nContext = createContext<I18n>({
  lang: 'en',
  locale: 'en',
  setLang: () => {},
  t: (key, vars) => translate('en', key, vars),
});

function initialLang(): Lang {
  if (typeof window === 'undefined') return 'en';
  let stored: string | null = null;
  try {
    stored = window.localStorage.getItem(STORAGE_KEY);
  } catch {
    // storage disabled
  }
  return detectLanguage(stored, navigator.languages?.length ? navigator.languages : [navigator.language]);
}

export function I18nProvider({ children, lang: forced }: { children: ReactNode; lang?: Lang }) {
  const [lang, setLangState] = useState<Lang>(() => forced ?? initialLang());
  const setLang = useCallback((l: Lang) => {
    setLangState(l);
    try {
      window.localStorage.setItem(STORAGE_KEY, l);
    } catch {
      // storage disabled
    }
  }, []);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  const value = useMemo<I18n>(
    () => ({ lang, locale: lang === 'es' ? 'es-ES' : 'en-US', setLang, t: (key, vars) => translate(lang, key, vars) }),
    [lang, setLang],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export const useT = () => useContext(I18nContext);

/** Language codes accepted by the intake document §8. */
export const LANGUAGES: ReadonlySet<string> = new Set(
  'ca es en pt gl eu fr de it nl ar zh ru ja ko pl ro tr uk sv no da fi cs el hu he hi id th vi bg hr sk sr fa ur ms ta'.split(
    ' ',
  ),
);

/** "es", "ES" and "es-MX" all mean Spanish; anything else is not a language we know. */
export function parseLanguage(value: string | undefined | null): string | null {
  if (!value) return null;
  const base = value.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return LANGUAGES.has(base) ? base : null;
}

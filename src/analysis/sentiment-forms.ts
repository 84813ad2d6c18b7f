/*
 * Word forms the lexicons do not list (issue 27). Transcripts and typed chats often lose Spanish
 * accents ("que verguenza", "esta caido", "no funciona la conexion"), and the translated AFINN list
 * holds mostly one form of each adjective (the masculine singular: "bueno", "lento", but not "buena",
 * "lenta", "lentísimo"). The scorer folds accents away from the text, its patterns and its word lists
 * alike, and reads a feminine, plural or superlative adjective as its listed form.
 */

/**
 * Lower-case text without acute, grave, circumflex accents or diaeresis ("vergüenza" → "verguenza");
 * "ñ" stays. "sí" (yes) keeps its accent: folded, it would be the conditional "si" and a "Sí, claro"
 * would read as a supposition; a transcript that spells it "si" is read as the conditional.
 */
export function foldAccents(text: string): string {
  return text
    .split(/(?<!\p{L})(sí)(?!\p{L})/u)
    .map((part) =>
      part === 'sí'
        ? part
        : part
            .normalize('NFD')
            .replace(/[\u0300-\u0302\u0308]/g, '')
            .normalize('NFC'),
    )
    .join('');
}

/** A record with folded keys; where two keys fold together, `prefer` (the contact-centre list) wins, then the unaccented one. */
export function foldKeys<T>(record: Record<string, T>, prefer: Record<string, T> = {}): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, value] of Object.entries(record)) {
    const folded = foldAccents(key);
    if (folded in out && key !== folded && !(key in prefer)) continue;
    out[folded] = value;
  }
  return out;
}

/** Adjective endings of the translated list whose other genders and numbers are the same word. */
const ADJECTIVE = /(?:ado|ido|oso|ivo|ento|ico|isimo|eto|ecto|uro|ano|ino|ente|ante|ble|al|il|ar)$/;
/** Adjectives in -o with no such ending ("buena", "mala", "lenta", "rota"…). */
const PLAIN_ADJECTIVES = new Set([
  'bueno',
  'malo',
  'bonito',
  'caro',
  'barato',
  'claro',
  'comodo',
  'incomodo',
  'feo',
  'honesto',
  'injusto',
  'justo',
  'lento',
  'loco',
  'molesto',
  'pesimo',
  'ridiculo',
  'roto',
  'rudo',
  'satisfecho',
  'insatisfecho',
  'sucio',
  'tonto',
  'tranquilo',
  'horrendo',
  'maldito',
  'extraño',
  'confuso',
  'erroneo',
  'falso',
  'digno',
  'exquisito',
  'estupendo',
  'favorito',
  'serio',
  'tenso',
  'vago',
  'nuevo',
  'perfecto',
  'correcto',
  'incorrecto',
  'atento',
  'educado',
  'maleducado',
  'majo',
  'listo',
]);

/** Superlatives count this much more than their base: "lentísimo" is worse than "lento". */
const SUPERLATIVE = 1.3;

/**
 * The value of a Spanish word the lexicon does not list, read through its listed form: "buenas" →
 * "bueno", "lentas" → "lento", "amables" → "amable", "lentísima" → 1.3 × "lento", "clarito" → "claro",
 * "buen" → "bueno".
 * Undefined when no listed adjective fits. Tokens are accent-folded already.
 */
export function inflectedValue(token: string, labels: ReadonlyMap<string, number>): number | undefined {
  if (token.includes('-') || token.length < 4) return token === 'buen' ? labels.get('bueno') : undefined;
  const adjective = (base: string) => {
    const v = labels.get(base);
    return v !== undefined && v !== 0 && (ADJECTIVE.test(base) || PLAIN_ADJECTIVES.has(base)) ? v : undefined;
  };
  const superlative = /^(.+?)(?:isim[oa]s?)$/.exec(token);
  if (superlative) {
    const stem = superlative[1]!;
    for (const base of [`${stem}o`, `${stem}e`, stem]) {
      const v = labels.get(base);
      if (v !== undefined && v !== 0) return v * SUPERLATIVE;
    }
    return undefined;
  }
  // Diminutives: "clarito", "rapidito" (a base ending in -o or -e: "clarito" → "claro").
  const diminutive = /^(.+?)(?:it[oa]s?)$/.exec(token);
  if (diminutive) {
    for (const base of [`${diminutive[1]}o`, `${diminutive[1]}e`]) {
      const v = adjective(base);
      if (v !== undefined) return v;
    }
  }
  const candidates: string[] = [];
  if (token.endsWith('as')) candidates.push(`${token.slice(0, -2)}o`, token.slice(0, -1));
  else if (token.endsWith('os')) candidates.push(token.slice(0, -1));
  else if (token.endsWith('a')) candidates.push(`${token.slice(0, -1)}o`);
  if (token.endsWith('es')) candidates.push(token.slice(0, -2), token.slice(0, -1));
  for (const base of candidates) {
    const v = adjective(base);
    if (v !== undefined) return v;
  }
  return undefined;
}

/**
 * English contractions as transcripts and typed chats spell them, without the apostrophe ("i cant
 * override that", "dont patronise me", "youve been really good"): the patterns are written with
 * it. Only forms that are not also words ("ill", "id", "its", "well", "were", "wed" are left).
 */
const BARE_CONTRACTIONS: Record<string, string> = {
  cant: "can't",
  dont: "don't",
  doesnt: "doesn't",
  didnt: "didn't",
  isnt: "isn't",
  wasnt: "wasn't",
  arent: "aren't",
  werent: "weren't",
  wont: "won't",
  wouldnt: "wouldn't",
  couldnt: "couldn't",
  shouldnt: "shouldn't",
  havent: "haven't",
  hasnt: "hasn't",
  hadnt: "hadn't",
  aint: "ain't",
  im: "i'm",
  ive: "i've",
  youve: "you've",
  youre: "you're",
  theyre: "they're",
  theyve: "they've",
  weve: "we've",
  thats: "that's",
  whats: "what's",
  theres: "there's",
  heres: "here's",
  hes: "he's",
  shes: "she's",
  youll: "you'll",
  itll: "it'll",
};
const BARE = new RegExp(`(?<![\\p{L}'])(?:${Object.keys(BARE_CONTRACTIONS).join('|')})(?![\\p{L}'])`, 'gu');

/** Lower-case English text with its bare contractions given their apostrophe back ("cant" → "can't"). */
export function restoreContractions(lower: string): string {
  return lower.replace(BARE, (word) => BARE_CONTRACTIONS[word]!);
}

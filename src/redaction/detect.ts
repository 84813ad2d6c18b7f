// Finds personal and payment data in transcript text. Every detector that can check a number
// does (Luhn for cards, ISO 7064 mod 97 for IBANs, the control letter of a DNI/NIE), so that
// order numbers and amounts are left alone; the rest (CVV, expiry, social security numbers) are
// only taken near a card number or a keyword, where a person would take them too.
import { type DigitRun, digitRuns, luhn, numberWords, spanOfDigits, type Word, words } from './numbers.ts';

export const PII_KINDS = ['card_number', 'cvv', 'card_expiry', 'iban', 'dni_nie', 'ssn', 'email', 'phone'] as const;
export type PiiKind = (typeof PII_KINDS)[number];

/** What replaces each kind in the stored text. */
export const PLACEHOLDER: Record<PiiKind, string> = {
  card_number: '[CARD_NUMBER]',
  cvv: '[CVV]',
  card_expiry: '[CARD_EXPIRY]',
  iban: '[IBAN]',
  dni_nie: '[DNI_NIE]',
  ssn: '[SSN]',
  email: '[EMAIL]',
  phone: '[PHONE]',
};

export interface PiiSpan {
  kind: PiiKind;
  /** Character offsets into the text: [start, end). */
  start: number;
  end: number;
}

/** Where something was found: character offsets into the text, [start, end). */
type Span = { start: number; end: number };

/** How far (characters) a CVV or expiry date may be from the card number it belongs to. */
const NEAR_CARD = 160;
/** How far (characters) a keyword may be before the number it names. */
const NEAR_KEYWORD = 60;

const CARD_WORDS = /\b(card|credit|debit|visa|mastercard|amex|tarjeta|cr[eé]dito|d[eé]bito)\b/iu;
const CVV_WORDS = /\b(cvv|cvc|cv2|security code|c[oó]digo de seguridad|c[oó]digo cvv|three digits|tres d[ií]gitos)\b/iu;
const EXPIRY_WORDS = /\b(expir\w*|exp|valid thru|valid until|caduc\w*|vencimiento|vence|v[aá]lida hasta)\b/iu;
const SSN_WORDS = /\b(social security|ssn|seguridad social|n[uú]mero de afiliaci[oó]n|nss)\b/iu;
const MONTHS =
  /\b(january|february|march|april|may|june|july|august|september|october|november|december|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre)\b/iu;

/**
 * Every span of the kinds asked for, sorted and not overlapping (where two detectors claim the
 * same characters the stricter check wins: card, IBAN, DNI/NIE, SSN, then phone).
 */
export function detectPii(text: string, kinds: readonly PiiKind[], language?: string | null): PiiSpan[] {
  const want = new Set(kinds);
  const all = words(text);
  const runs = digitRuns(text, numberWords(language), all);
  const found: PiiSpan[] = [];
  const claim = (kind: PiiKind, start: number, end: number) => {
    if (!found.some((s) => s.start < end && start < s.end)) found.push({ kind, start, end });
  };

  // Cards first: CVV and expiry are only looked for near one.
  const cards = findCards(text, runs);
  if (want.has('card_number')) for (const c of cards) claim('card_number', c.start, c.end);
  if (want.has('iban')) for (const s of findIbans(text)) claim('iban', s.start, s.end);
  if (want.has('dni_nie')) for (const s of findDniNie(text, runs, all)) claim('dni_nie', s.start, s.end);
  if (want.has('ssn')) for (const s of findSsn(text, runs)) claim('ssn', s.start, s.end);
  if (want.has('email')) for (const s of findEmails(text, all)) claim('email', s.start, s.end);
  if (want.has('card_expiry')) for (const s of findExpiry(text, runs, cards)) claim('card_expiry', s.start, s.end);
  if (want.has('cvv')) for (const s of findCvv(text, runs, cards)) claim('cvv', s.start, s.end);
  if (want.has('phone'))
    for (const r of runs) {
      const digits = r.digits.length;
      if (digits >= 9 && digits <= 15) claim('phone', r.start, r.end);
    }
  return found.sort((a, b) => a.start - b.start);
}

/** Replaces each span with its placeholder. */
export function redact(text: string, spans: readonly PiiSpan[]): string {
  let out = '';
  let at = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    if (s.start < at) continue;
    out += text.slice(at, s.start) + PLACEHOLDER[s.kind];
    at = s.end;
  }
  return out + text.slice(at);
}

/** Card numbers: 13–19 digits passing Luhn, also inside a longer run (a card read out with its CVV). */
function findCards(text: string, runs: DigitRun[]): Span[] {
  const cards: Span[] = [];
  for (const r of runs) {
    const n = r.digits.length;
    if (n < 13) continue;
    // A recogniser that mishears one digit breaks the Luhn check; the other fifteen must not leak,
    // so a card-length number right after the word "card" is taken as one.
    const named = n <= 19 && CARD_WORDS.test(text.slice(Math.max(0, r.start - NEAR_KEYWORD), r.start));
    if (n <= 19 && (luhn(r.digits) || named)) {
      cards.push({ start: r.start, end: r.end });
      continue;
    }
    // A card read in one breath with its CVV: the card first, then 3 or 4 digits. Any other
    // window is not searched: one in ten digit strings passes Luhn by chance.
    for (const len of [16, 15]) {
      if ((n - len === 3 || n - len === 4) && luhn(r.digits.slice(0, len))) {
        cards.push(spanOfDigits(r, 0, len));
        break;
      }
    }
  }
  return cards;
}

/**
 * IBANs, written or as the recogniser spaces them: a country that has IBANs, its length, the shape of
 * its account part (Spain's is 20 digits, Britain's 4 letters and 14 digits…) and ISO 7064 mod 97.
 * The shape is what keeps words out: "call me back on 617-555-0142 is there anything else" once read
 * as an IBAN of country "ON" whose length was taken from wherever mod 97 happened to pass.
 */
function findIbans(text: string): Span[] {
  const out: Span[] = [];
  for (const m of text.matchAll(/\b[A-Za-z]{2}\s?\d{2}(?:[ -]?[A-Za-z0-9]){11,30}/g)) {
    const chars = [...m[0]];
    const compactAt: number[] = [];
    let compact = '';
    chars.forEach((c, i) => {
      if (/[A-Za-z0-9]/.test(c)) {
        compact += c.toUpperCase();
        compactAt.push(i);
      }
    });
    const shape = IBAN_SHAPES[compact.slice(0, 2)];
    if (!shape) continue;
    const len = 4 + shape.length;
    if (compact.length < len || !shape.pattern.test(compact.slice(4, len)) || !ibanValid(compact.slice(0, len)))
      continue;
    out.push({ start: m.index, end: m.index + compactAt[len - 1]! + 1 });
  }
  return out;
}

/**
 * The account part (BBAN) of the countries whose IBANs a Spanish or English-speaking centre meets most,
 * from the SWIFT IBAN registry: n digits, a capital letters, c either.
 */
const IBAN_SHAPES: Record<string, { pattern: RegExp; length: number }> = Object.fromEntries(
  Object.entries({
    ES: '20n',
    PT: '21n',
    FR: '10n11c2n',
    IT: '1a10n12c',
    DE: '18n',
    GB: '4a14n',
    IE: '4a14n',
    NL: '4a10n',
    BE: '12n',
    AT: '16n',
    CH: '5n12c',
    LU: '3n13c',
    AD: '8n12c',
    MC: '10n11c2n',
    SE: '20n',
    DK: '14n',
    FI: '14n',
    NO: '11n',
    PL: '24n',
    GR: '7n16c',
    MT: '4a5n18c',
    CY: '8n16c',
    RO: '4a16c',
    BG: '4a6n8c',
  }).map(([country, spec]) => {
    const groups = [...spec.matchAll(/(\d+)([nac])/g)].map((g) => [Number(g[1]), g[2]!] as const);
    const cls = { n: '\\d', a: '[A-Z]', c: '[A-Z0-9]' } as const;
    return [
      country,
      {
        pattern: new RegExp(`^${groups.map(([n, k]) => `${cls[k as 'n']}{${n}}`).join('')}$`),
        length: groups.reduce((a, [n]) => a + n, 0),
      },
    ];
  }),
);

export function ibanValid(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const c of moved) {
    const v = c >= 'A' ? String(c.charCodeAt(0) - 55) : c;
    for (const d of v) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

export function dniValid(digits8: string, letter: string): boolean {
  return /^\d{8}$/.test(digits8) && DNI_LETTERS[Number(digits8) % 23] === letter.toUpperCase();
}

/** DNI (8 digits + letter) and NIE (X/Y/Z + 7 digits + letter), with the control letter checked. */
function findDniNie(text: string, runs: DigitRun[], all: Word[]): Span[] {
  const out: Span[] = [];
  for (const m of text.matchAll(/\b([XYZxyz]\s?-?\s?)?(\d{7,8})\s?-?\s?([A-Za-z])\b/g)) {
    const prefix = m[1]?.trim().replace('-', '').toUpperCase();
    const digits = prefix ? String('XYZ'.indexOf(prefix)) + m[2]! : m[2]!;
    if (digits.length === 8 && dniValid(digits, m[3]!)) out.push({ start: m.index, end: m.index + m[0].length });
  }
  // Read out: "uno dos … ocho, letra zeta" / "equis siete …".
  for (const r of runs) {
    const next = all[r.to]?.norm === 'letra' || all[r.to]?.norm === 'letter' ? r.to + 1 : r.to;
    const letterWord = all[next];
    const letter = letterWord && letterOf(letterWord.norm);
    if (!letter) continue;
    const before = all[r.from - 1];
    const prefix = before && letterOf(before.norm);
    const nie = !!prefix && 'xyz'.includes(prefix) && r.digits.length === 7;
    const digits = nie ? String('xyz'.indexOf(prefix)) + r.digits : r.digits;
    if (digits.length === 8 && dniValid(digits, letter))
      out.push({ start: nie ? before.start : r.start, end: letterWord.end });
  }
  return out;
}

/** Letters as written ("z") or said ("zeta", "zed", "equis"); single words only. */
const LETTER_NAMES: Record<string, string> = {
  te: 't',
  tee: 't',
  erre: 'r',
  are: 'r',
  a: 'a',
  ge: 'g',
  gee: 'g',
  eme: 'm',
  em: 'm',
  why: 'y',
  efe: 'f',
  ef: 'f',
  pe: 'p',
  pee: 'p',
  de: 'd',
  dee: 'd',
  equis: 'x',
  ex: 'x',
  be: 'b',
  bee: 'b',
  ene: 'n',
  en: 'n',
  jota: 'j',
  jay: 'j',
  zeta: 'z',
  zed: 'z',
  zee: 'z',
  ese: 's',
  es: 's',
  cu: 'q',
  cue: 'q',
  uve: 'v',
  vee: 'v',
  hache: 'h',
  aitch: 'h',
  ele: 'l',
  el: 'l',
  ce: 'c',
  cee: 'c',
  see: 'c',
  ka: 'k',
  kay: 'k',
  e: 'e',
};

function letterOf(norm: string): string | null {
  if (/^[a-z]$/.test(norm)) return norm;
  return LETTER_NAMES[norm] ?? null;
}

/** US SSNs written 123-45-6789 (valid areas only), and 9- or 12-digit numbers named as one. */
function findSsn(text: string, runs: DigitRun[]): Span[] {
  const out: Span[] = [];
  for (const m of text.matchAll(/\b(\d{3})-(\d{2})-(\d{4})\b/g)) {
    if (ssnValid(m[1]!, m[2]!, m[3]!)) out.push({ start: m.index, end: m.index + m[0].length });
  }
  for (const r of runs) {
    const named = SSN_WORDS.test(text.slice(Math.max(0, r.start - NEAR_KEYWORD), r.start));
    if (!named) continue;
    const d = r.digits;
    if (d.length === 9 && ssnValid(d.slice(0, 3), d.slice(3, 5), d.slice(5))) out.push(r);
    // Spain's número de la Seguridad Social: 12 digits, the last two the rest mod 97.
    else if (d.length === 12 && Number(BigInt(d.slice(0, 10)) % 97n) === Number(d.slice(10))) out.push(r);
  }
  return out;
}

function ssnValid(area: string, group: string, serial: string): boolean {
  return area !== '000' && area !== '666' && area[0] !== '9' && group !== '00' && serial !== '0000';
}

/** Written addresses, and dictated ones: "juan punto perez arroba gmail punto com". */
function findEmails(text: string, all: Word[]): Span[] {
  const out: Span[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu))
    out.push({ start: m.index, end: m.index + m[0].length });
  const isAt = (w?: Word) => w?.norm === 'at' || w?.norm === 'arroba';
  const isDot = (w?: Word) => w?.norm === 'dot' || w?.norm === 'punto';
  for (let k = 1; k + 3 < all.length + 1; k++) {
    if (!isAt(all[k]) || !all[k + 1] || !isDot(all[k + 2]) || !all[k + 3]) continue;
    let from = k - 1;
    while (from >= 2 && isDot(all[from - 1])) from -= 2;
    let to = k + 3;
    while (isDot(all[to + 1]) && (all[to + 2]?.norm.length ?? 99) <= 4) to += 2;
    out.push({ start: all[from]!.start, end: all[to]!.end });
  }
  return out;
}

/** Expiry dates near a card number or after an expiry word: 12/27, 12 27, "December 2027". */
function findExpiry(text: string, runs: DigitRun[], cards: Span[]): Span[] {
  const near = (start: number, end: number) =>
    cards.some((c) => start < c.end + NEAR_CARD && end > c.start - NEAR_CARD) ||
    EXPIRY_WORDS.test(text.slice(Math.max(0, start - NEAR_KEYWORD), start));
  const out: Span[] = [];
  for (const m of text.matchAll(/\b(0?[1-9]|1[0-2])\s?[/-]\s?(\d{4}|\d{2})\b/g))
    if (near(m.index, m.index + m[0].length)) out.push({ start: m.index, end: m.index + m[0].length });
  for (const m of text.matchAll(new RegExp(`${MONTHS.source}(\\s+(of|de|del))?\\s+`, 'giu'))) {
    const run = runs.find((r) => r.start === m.index + m[0].length);
    if (run && (run.digits.length === 2 || run.digits.length === 4) && near(m.index, run.end))
      out.push({ start: m.index, end: run.end });
  }
  for (const r of runs) {
    if (r.digits.length !== 4) continue;
    const month = Number(r.digits.slice(0, 2));
    if (month >= 1 && month <= 12 && near(r.start, r.end)) out.push(r);
  }
  return out;
}

/** Three or four digits near a card number, or after a CVV word. */
function findCvv(text: string, runs: DigitRun[], cards: Span[]): Span[] {
  const out: Span[] = [];
  for (const r of runs) {
    const tail = r.digits.length > 4 ? cvvAfterCard(r, cards) : null;
    if (tail) {
      out.push(tail);
      continue;
    }
    if (r.digits.length < 3 || r.digits.length > 4) continue;
    const nearCard = cards.some((c) => r.start < c.end + NEAR_CARD && r.end > c.start - NEAR_CARD);
    const named = CVV_WORDS.test(text.slice(Math.max(0, r.start - NEAR_KEYWORD), r.start));
    if (nearCard || named) out.push(r);
  }
  return out;
}

/** The digits read straight after a card number in the same breath ("… 0366 123"). */
function cvvAfterCard(r: DigitRun, cards: Span[]) {
  const card = cards.find((c) => c.start >= r.start && c.end < r.end);
  if (!card) return null;
  const after = r.parts.filter((p) => p.start > card.end);
  const digits = after.map((p) => p.digits).join('');
  if (digits.length < 3 || digits.length > 4) return null;
  return { start: after[0]!.start, end: after[after.length - 1]!.end };
}

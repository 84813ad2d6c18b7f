// Digits as a recogniser writes them: numerals ("4532"), number words ("four five three two",
// "cuarenta y cinco") or a mix. Card numbers, IBANs and phone numbers are read out in all of
// these forms, so detectors work on runs of digits rebuilt from the words.

/** A word's value, and how many digits it stands for when read out in a number (45 → 2). */
const UNITS_EN: Record<string, string> = {
  zero: '0',
  oh: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
};
const UNITS_ES: Record<string, string> = {
  cero: '0',
  un: '1',
  uno: '1',
  una: '1',
  dos: '2',
  tres: '3',
  cuatro: '4',
  cinco: '5',
  seis: '6',
  siete: '7',
  ocho: '8',
  nueve: '9',
};

const TEENS_EN: Record<string, string> = {
  ten: '10',
  eleven: '11',
  twelve: '12',
  thirteen: '13',
  fourteen: '14',
  fifteen: '15',
  sixteen: '16',
  seventeen: '17',
  eighteen: '18',
  nineteen: '19',
};
const TEENS_ES: Record<string, string> = {
  diez: '10',
  once: '11',
  doce: '12',
  trece: '13',
  catorce: '14',
  quince: '15',
  dieciseis: '16',
  diecisiete: '17',
  dieciocho: '18',
  diecinueve: '19',
  veinte: '20',
  veintiuno: '21',
  veintiun: '21',
  veintiuna: '21',
  veintidos: '22',
  veintitres: '23',
  veinticuatro: '24',
  veinticinco: '25',
  veintiseis: '26',
  veintisiete: '27',
  veintiocho: '28',
  veintinueve: '29',
};

const TENS_EN: Record<string, string> = {
  twenty: '2',
  thirty: '3',
  forty: '4',
  fifty: '5',
  sixty: '6',
  seventy: '7',
  eighty: '8',
  ninety: '9',
};
const TENS_ES: Record<string, string> = {
  treinta: '3',
  cuarenta: '4',
  cincuenta: '5',
  sesenta: '6',
  setenta: '7',
  ochenta: '8',
  noventa: '9',
};

interface NumberWords {
  units: Record<string, string>;
  teens: Record<string, string>;
  tens: Record<string, string>;
}

/**
 * The number words of the call's language; both languages when it is unknown. Kept apart because
 * some are ordinary words in the other language ("once" is 11 in Spanish).
 */
export function numberWords(language?: string | null): NumberWords {
  if (language === 'en') return { units: UNITS_EN, teens: TEENS_EN, tens: TENS_EN };
  if (language === 'es') return { units: UNITS_ES, teens: TEENS_ES, tens: TENS_ES };
  return {
    units: { ...UNITS_EN, ...UNITS_ES },
    teens: { ...TEENS_EN, ...TEENS_ES },
    tens: { ...TENS_EN, ...TENS_ES },
  };
}

/** One word of the text, with its position. */
export interface Word {
  text: string;
  /** Lower case, accents folded, punctuation stripped. */
  norm: string;
  start: number;
  end: number;
}

export function words(text: string): Word[] {
  const out: Word[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}@._+-]+/gu)) {
    const raw = m[0].replace(/[.,_-]+$/u, '');
    if (!raw) continue;
    const norm = raw.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    out.push({ text: raw, norm, start: m.index, end: m.index + raw.length });
  }
  return out;
}

/** A run of digits read from consecutive words, with the character span it covers. */
export interface DigitRun {
  digits: string;
  start: number;
  end: number;
  /** Index of the first and one past the last word of the run. */
  from: number;
  to: number;
  /** Where each word's (or "forty five"'s) digits stand in the text, in order. */
  parts: { digits: string; start: number; end: number }[];
}

/**
 * The digits a word stands for: "4532" → "4532", "four" → "4", "forty" → "40" (and "forty five"
 * → "45" by `digitRuns`), "4532-0151" → "45320151". Null for any other word.
 */
function wordDigits(norm: string, n: NumberWords): string | null {
  const bare = norm.replace(/[-.+()]/g, '');
  if (/^\d+$/.test(bare)) return bare;
  return n.units[norm] ?? n.teens[norm] ?? (n.tens[norm] ? `${n.tens[norm]}0` : null);
}

/**
 * Maximal runs of number words and numerals. Words that only join numbers ("and"/"y" between a
 * ten and a unit, "double", "triple") are read as a person would; anything else ends the run.
 * The recogniser's own punctuation between groups ("4532, 0151") does not.
 */
export function digitRuns(text: string, n: NumberWords = numberWords(), all: Word[] = words(text)): DigitRun[] {
  const { units: UNITS, tens: TENS } = n;
  const runs: DigitRun[] = [];
  let i = 0;
  while (i < all.length) {
    if (wordDigits(all[i]!.norm, n) === null && !isMultiplier(all[i]!.norm)) {
      i++;
      continue;
    }
    let digits = '';
    const from = i;
    let last = i;
    const parts: DigitRun['parts'] = [];
    let tailWord = -1; // the word of the last part, when it is one word
    const add = (d: string, a: number, b: number) => {
      digits += d;
      parts.push({ digits: d, start: all[a]!.start, end: all[b]!.end });
      tailWord = a === b ? a : -1;
    };
    while (i < all.length) {
      const w = all[i]!.norm;
      const tens = TENS[w];
      if (tens) {
        // "forty five" / "cuarenta y cinco" is 45; "forty" alone is 40.
        const next = all[i + 1]?.norm;
        const joined = next === 'y' || next === 'and' ? all[i + 2]?.norm : next;
        const unitAt = next === 'y' || next === 'and' ? i + 2 : i + 1;
        if (joined && UNITS[joined] && UNITS[joined] !== '0') {
          add(tens + UNITS[joined], i, unitAt);
          last = unitAt;
          i = unitAt + 1;
          continue;
        }
        add(`${tens}0`, i, i);
        last = i++;
        continue;
      }
      if (isMultiplier(w)) {
        const following = all[i + 1];
        const d = following && wordDigits(following.norm, n);
        if (d && d.length === 1) {
          add(d.repeat(w === 'double' || w === 'doble' ? 2 : 3), i, i + 1);
          last = i + 1;
          i += 2;
          continue;
        }
        break;
      }
      const d = wordDigits(w, n);
      if (d === null) break;
      add(d, i, i);
      last = i++;
    }
    // A lone number word that starts the next sentence ("…0142. One more thing") is not part of it.
    const tail = parts.at(-1);
    if (parts.length > 1 && tail && tail.digits.length <= 2 && last === tailWord && startsSentence(text, parts)) {
      parts.pop();
      digits = digits.slice(0, -tail.digits.length);
      last = tailWord - 1;
      i = tailWord;
    }
    if (digits) runs.push({ digits, start: all[from]!.start, end: all[last]!.end, from, to: last + 1, parts });
    if (i === from) i++;
  }
  return runs;
}

/** Whether a sentence ends (. ? !) between the last two parts of a run. */
function startsSentence(text: string, parts: DigitRun['parts']): boolean {
  return /[.?!]/.test(text.slice(parts.at(-2)!.end, parts.at(-1)!.start));
}

function isMultiplier(norm: string) {
  return norm === 'double' || norm === 'triple' || norm === 'doble' || norm === 'triple';
}

/** The Luhn check every payment card number passes. */
export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** The character span of digits [a, b) of a run (whole words: a window never splits a word). */
export function spanOfDigits(run: DigitRun, a: number, b: number): { start: number; end: number } {
  let at = 0;
  let start = run.end;
  let end = run.start;
  for (const p of run.parts) {
    const next = at + p.digits.length;
    if (next > a && at < b) {
      start = Math.min(start, p.start);
      end = Math.max(end, p.end);
    }
    at = next;
  }
  return { start, end };
}

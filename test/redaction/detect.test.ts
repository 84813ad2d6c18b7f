import { describe, expect, test } from 'vitest';
import { detectPii, PII_KINDS, redact, type PiiKind } from '../../src/redaction/detect.ts';
import { MARGIN_SECONDS, redactSegments, spansOf } from '../../src/redaction/segments.ts';
import { textWords } from '../../src/transcription/align.ts';
import type { Segment } from '../../src/call-columns.ts';

const all = PII_KINDS;
const run = (text: string, language?: string, kinds: readonly PiiKind[] = all) =>
  redact(text, detectPii(text, kinds, language));

describe('card numbers (Luhn)', () => {
  test.each([
    ['en', 'my card is 4532 0151 1283 0366 thanks', 'my card is [CARD_NUMBER] thanks'],
    ['en', 'it is 4532-0151-1283-0366.', 'it is [CARD_NUMBER].'],
    ['en', 'amex 378282246310005 ok', 'amex [CARD_NUMBER] ok'],
    ['en', 'four five three two zero one five one one two eight three zero three six six', '[CARD_NUMBER]'],
    ['en', 'forty five thirty two, zero one five one, twelve eighty three, oh three six six', '[CARD_NUMBER]'],
    [
      'es',
      'el número es cuatro cinco tres dos cero uno cinco uno uno dos ocho tres cero tres seis seis',
      'el número es [CARD_NUMBER]',
    ],
    ['es', 'cuarenta y cinco treinta y dos, 0151, doce ochenta y tres, 0366 gracias', '[CARD_NUMBER] gracias'],
  ])('%s: %s', (language, text, expected) => {
    expect(run(text, language)).toBe(expected);
  });

  test('a number that fails the Luhn check is not a card (it may still be a phone-length number)', () => {
    expect(run('order 4532 0151 1283 0367', 'en', ['card_number'])).toBe('order 4532 0151 1283 0367');
  });

  test('a card-length number after the word "card" is redacted even if a misheard digit breaks Luhn', () => {
    expect(run('my card number is 4532 0151 1283 0367', 'en', ['card_number'])).toBe('my card number is [CARD_NUMBER]');
    expect(run('la tarjeta es 4532 0151 1283 0367', 'es', ['card_number'])).toBe('la tarjeta es [CARD_NUMBER]');
  });

  test('amounts and short numbers are left alone', () => {
    const text = 'you owe 45 euros and 30 cents, reference 2024, call back at 5';
    expect(run(text, 'en')).toBe(text);
    expect(run('son cuarenta y cinco euros con treinta', 'es')).toBe('son cuarenta y cinco euros con treinta');
  });

  test('"once" is a Spanish number but an English word', () => {
    expect(run('I called once about it', 'en')).toBe('I called once about it');
  });
});

describe('CVV and expiry near a card number', () => {
  test('English, read out after the card', () => {
    expect(run('card 4532015112830366 expiry 12/27 and the security code is 123', 'en')).toBe(
      'card [CARD_NUMBER] expiry [CARD_EXPIRY] and the security code is [CVV]',
    );
  });
  test('Spanish, in words', () => {
    expect(
      run(
        'la tarjeta 4111 1111 1111 1111, caduca en diciembre del veintisiete, código de seguridad siete ocho nueve',
        'es',
      ),
    ).toBe('la tarjeta [CARD_NUMBER], caduca en [CARD_EXPIRY], código de seguridad [CVV]');
  });
  test('a CVV read in the same breath as the card', () => {
    expect(run('4532 0151 1283 0366 321', 'en')).toBe('[CARD_NUMBER] [CVV]');
  });
  test('three digits with no card nearby are not a CVV', () => {
    expect(run('room 123, floor 12/3', 'en', ['cvv', 'card_expiry'])).toBe('room 123, floor 12/3');
  });
});

describe('IBAN (mod 97)', () => {
  test.each([
    ['ES91 2100 0418 4502 0005 1332', '[IBAN]'],
    ['es9121000418450200051332 por favor', '[IBAN] por favor'],
    ['GB82 WEST 1234 5698 7654 32 thanks', '[IBAN] thanks'],
  ])('%s', (text, expected) => {
    expect(run(text, undefined, ['iban'])).toBe(expected);
  });
  test('a wrong check digit is not an IBAN', () => {
    expect(run('ES91 2100 0418 4502 0005 1333', undefined, ['iban'])).toBe('ES91 2100 0418 4502 0005 1333');
  });
});

describe('DNI / NIE (control letter)', () => {
  test.each([
    ['mi DNI es 12345678Z', 'mi DNI es [DNI_NIE]'],
    ['NIE X1234567L vale', 'NIE [DNI_NIE] vale'],
    ['es el 87654321-X', 'es el [DNI_NIE]'],
    ['uno dos tres cuatro cinco seis siete ocho zeta', '[DNI_NIE]'],
    ['equis uno dos tres cuatro cinco seis siete ele', '[DNI_NIE]'],
    ['uno dos tres cuatro cinco seis siete ocho, letra z', '[DNI_NIE]'],
  ])('%s', (text, expected) => {
    expect(run(text, 'es', ['dni_nie'])).toBe(expected);
  });
  test('a wrong letter is not a DNI', () => {
    expect(run('mi DNI es 12345678A', 'es', ['dni_nie'])).toBe('mi DNI es 12345678A');
  });
});

describe('social security numbers', () => {
  test('US format with a valid area', () => {
    expect(run('SSN 123-45-6789', 'en', ['ssn'])).toBe('SSN [SSN]');
    expect(run('code 666-45-6789', 'en', ['ssn'])).toBe('code 666-45-6789');
  });
  test('nine digits read out after "social security"', () => {
    expect(run('my social security number is one two three four five six seven eight nine', 'en', ['ssn'])).toBe(
      'my social security number is [SSN]',
    );
  });
  test('the Spanish number with its mod-97 check, named', () => {
    expect(run('número de la seguridad social 281234567840', 'es', ['ssn'])).toBe(
      'número de la seguridad social [SSN]',
    );
    expect(run('número de la seguridad social 281234567841', 'es', ['ssn'])).toBe(
      'número de la seguridad social 281234567841',
    );
  });
});

describe('e-mail addresses', () => {
  test.each([
    ['en', 'write to ana.perez+qa@example.co.uk today', 'write to [EMAIL] today'],
    ['en', 'it is ana dot perez at gmail dot com okay', 'it is [EMAIL] okay'],
    ['es', 'es juan arroba hotmail punto es gracias', 'es [EMAIL] gracias'],
  ])('%s: %s', (language, text, expected) => {
    expect(run(text, language, ['email'])).toBe(expected);
  });
  test('"at" in a sentence is not an address', () => {
    expect(run('I was at home at nine', 'en', ['email'])).toBe('I was at home at nine');
  });
});

describe('phone numbers', () => {
  test.each([
    ['es', 'llámame al 666 77 88 99', 'llámame al [PHONE]'],
    ['es', 'mi móvil es seis seis seis siete siete ocho ocho nueve nueve', 'mi móvil es [PHONE]'],
    ['en', 'call +1 415 555 0100 back', 'call [PHONE] back'],
  ])('%s: %s', (language, text, expected) => {
    expect(run(text, language, ['phone'])).toBe(expected);
  });
});

test('each detector can be turned off', () => {
  const text = 'card 4532015112830366, mail ana@example.com';
  expect(run(text, 'en', ['email'])).toBe('card 4532015112830366, mail [EMAIL]');
  expect(run(text, 'en', [])).toBe(text);
});

describe('redactSegments', () => {
  const seg = (start: number, end: number, text: string, speaker: Segment['speaker'] = 'customer'): Segment => ({
    start,
    end,
    text,
    speaker,
    channel: 1,
  });

  test('a card read over three segments is redacted in each; without word timings each segment is silenced whole', () => {
    const input = [
      seg(0, 2, 'Can I have the card number?', 'agent'),
      seg(2, 5, 'Yes it is 4532 0151'),
      seg(5.5, 7, '1283 0366'),
      seg(7.5, 9, 'Thank you.', 'agent'),
    ];
    const { segments, pieces } = redactSegments(input, PII_KINDS, 'en');
    expect(segments.map((s) => s.text)).toEqual([
      'Can I have the card number?',
      'Yes it is [CARD_NUMBER]',
      '[CARD_NUMBER]',
      'Thank you.',
    ]);
    expect(spansOf(input, pieces, new Map())).toEqual([
      { kind: 'card_number', start: 2, end: 5 },
      { kind: 'card_number', start: 5.5, end: 7 },
    ]);
  });

  test('spans follow the words’ timings with a margin, not the characters’ place in the text', () => {
    // "my card number is" is short text but the digits take most of the segment's time: the old
    // estimate by character position began the beep two seconds after the first digit.
    const text = 'Yes, my card number is 4539 1234 5678 9012 thank you';
    const input = [seg(20, 30, text)];
    const { pieces } = redactSegments(input, ['card_number'], 'en');
    const at = [0, 0.5, 0.8, 1.1, 1.4, 1.7, 3.0, 4.5, 6.2, 7.8, 8.6];
    const words = textWords(text).map((w, i) => ({ ...w, start: at[i]!, end: at[i + 1] ?? 9.5 }));
    const [span] = spansOf(input, pieces, new Map([[0, words]]));
    // From the earlier of the middle of "is" and the margin before the first digit; to the later of the middle of "thank" and the margin past the last.
    expect(span!.start).toBeCloseTo(20 + Math.min(1.7 - MARGIN_SECONDS, (1.4 + 1.7) / 2), 3);
    expect(span!.end).toBeCloseTo(20 + Math.max(7.8 + MARGIN_SECONDS, (7.8 + 8.6) / 2), 3);
    // A number that ends the segment is silenced to the segment's end.
    const end = [seg(0, 4, 'call me on 617 555 0142')];
    const timed = textWords(end[0]!.text).map((w, i) => ({ ...w, start: i * 0.5, end: i * 0.5 + 0.5 }));
    expect(spansOf(end, redactSegments(end, ['phone'], 'en').pieces, new Map([[0, timed]]))).toEqual([
      { kind: 'phone', start: 1.25, end: 4 },
    ]);
  });

  test('nothing found leaves the segments as they were', () => {
    const input = [seg(0, 2, 'Hello, how can I help?')];
    expect(redactSegments(input, PII_KINDS, 'en')).toEqual({ segments: input, pieces: [] });
  });
});

describe('a phone number is a phone number, and takes nothing after it', () => {
  const seg = (start: number, text: string, speaker: Segment['speaker']): Segment => ({
    start,
    end: start + 3,
    text,
    speaker,
    channel: speaker === 'agent' ? 0 : 1,
  });
  const texts = (segments: readonly Segment[], language: string) =>
    redactSegments(segments, PII_KINDS, language).segments.map((s) => s.text);

  // Each of these pairs was labelled [IBAN] with the agent's words before: two letters and the digits
  // after them, then the next sentence's letters, passed mod 97 at some length by chance.
  test.each([
    ['en', 'call me back on 415 555 0100', 'Okay noted anything else today', 'call me back on [PHONE]'],
    ['en', 'call me back on 212-555-0199', 'Thank you for calling Acme have a nice day', 'call me back on [PHONE]'],
    ['en', 'call me back on 617 555 0142', 'One moment please', 'call me back on [PHONE]'],
    ['en', 'it is six one seven five five five zero one four two', 'Two more questions then', 'it is [PHONE]'],
    ['es', 'llámame al 666 77 88 99', 'Gracias por llamar que tenga buen día', 'llámame al [PHONE]'],
    ['es', 'llámame al 617 555 014', 'Vale le llamo en un rato entonces', 'llámame al [PHONE]'],
    [
      'es',
      'mi número es seis uno siete cinco cinco cinco cero uno cuatro',
      'Un momento por favor',
      'mi número es [PHONE]',
    ],
  ])('%s: "%s" then the agent\'s "%s"', (language, customer, agent, expected) => {
    const out = texts([seg(0, customer, 'customer'), seg(3, agent, 'agent')], language);
    expect(out).toEqual([expected, agent]);
  });

  test.each([
    [
      'en',
      'call me back on 617-555-0142 Lovely is that your mobile number',
      'call me back on [PHONE] Lovely is that your mobile number',
    ],
    [
      'en',
      'call me back on 212-555-0199 Thanks I will ring you later today',
      'call me back on [PHONE] Thanks I will ring you later today',
    ],
    [
      'en',
      'my number is 617 555 0142. One more thing: the address.',
      'my number is [PHONE]. One more thing: the address.',
    ],
    [
      'es',
      'llámame al 666 77 88 99 Vale le llamo en un rato entonces',
      'llámame al [PHONE] Vale le llamo en un rato entonces',
    ],
    ['es', 'mi teléfono es 612 345 678. Uno de ellos, sí.', 'mi teléfono es [PHONE]. Uno de ellos, sí.'],
  ])('%s, one speaker: %s', (language, text, expected) => {
    expect(run(text, language)).toBe(expected);
  });

  test('an IBAN needs its country’s length and shape: a Spanish one read after "es" still is one', () => {
    expect(run('mi IBAN es ES91 2100 0418 4502 0005 1332 gracias', 'es')).toBe('mi IBAN es [IBAN] gracias');
    // Country "ES" but the account part runs into words: not an IBAN.
    expect(run('es 91 2100 y nada más que decir hoy', 'es', ['iban'])).toBe('es 91 2100 y nada más que decir hoy');
  });
});

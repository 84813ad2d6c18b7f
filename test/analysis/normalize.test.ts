import { describe, expect, it } from 'vitest';
import { normalizeText, tokenize, tokenizeWithOffsets } from '../../src/analysis/index.ts';

describe('normalize', () => {
  it('lower-cases, strips accents and punctuation, collapses spaces', () => {
    expect(normalizeText('  ¡Buenos DÍAS,   Señora!  ¿Qué tal? ')).toBe('buenos dias senora que tal');
  });

  it('keeps contractions as one token', () => {
    expect(tokenize("You've reached Acme. Don't hang up")).toEqual(['youve', 'reached', 'acme', 'dont', 'hang', 'up']);
  });

  it('gives tokens offsets into the original text', () => {
    const text = 'Hola, ¿cómo está?';
    const tokens = tokenizeWithOffsets(text);
    expect(tokens.map((t) => t.text)).toEqual(['hola', 'como', 'esta']);
    expect(text.slice(tokens[1]!.start, tokens[2]!.end)).toBe('¿cómo está?');
  });

  it('returns no tokens for punctuation only', () => {
    expect(tokenize('... ¿? —')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { findPhrases, tokensMatch } from '../../src/analysis/index.ts';
import { stereo } from './helpers.ts';

describe('tokensMatch', () => {
  it('tolerates one recognition error in a long word', () => {
    expect(tokensMatch('bienbenido', 'bienvenido')).toBe(true);
  });

  it('requires short words and numbers to match exactly', () => {
    expect(tokensMatch('so', 'no')).toBe(false);
    expect(tokensMatch('1234', '1235')).toBe(false);
  });

  it('rejects words that are too different', () => {
    expect(tokensMatch('cancelar', 'cambiar')).toBe(false);
  });
});

describe('findPhrases', () => {
  it('matches regardless of case and accents, quoting the original words with their time', () => {
    const call = stereo([[10, 20, 'agent', 'Hola. BIENVENIDO a Acmé, le atiende Ana.']]);
    const [match, ...rest] = findPhrases(call.segments, ['bienvenido a acme']);
    expect(rest).toEqual([]);
    expect(match).toMatchObject({
      phrase: 'bienvenido a acme',
      segment: 0,
      speaker: 'agent',
      quote: 'BIENVENIDO a Acmé',
    });
    // Interpolated inside the segment: the phrase starts a fifth of the way in.
    expect(match!.start).toBeGreaterThan(10);
    expect(match!.end).toBeLessThan(20);
  });

  it('matches a small recognition error', () => {
    const call = stereo([[0, 3, 'agent', 'Bienbenido a Acme']]);
    expect(findPhrases(call.segments, ['Bienvenido a Acme'])).toHaveLength(1);
  });

  it('allows one inserted word but not two', () => {
    const one = stereo([[0, 3, 'agent', 'thank you so for calling']]);
    const two = stereo([[0, 3, 'agent', 'thank you so much for calling']]);
    expect(findPhrases(one.segments, ['thank you for calling'])).toHaveLength(1);
    expect(findPhrases(two.segments, ['thank you for calling'])).toHaveLength(0);
  });

  it('matches across segments of the same speaker, never across speakers', () => {
    const split = stereo([
      [0, 2, 'agent', 'thank you for'],
      [2.2, 4, 'agent', 'calling Acme'],
    ]);
    expect(findPhrases(split.segments, ['thank you for calling acme'])[0]).toMatchObject({
      quote: 'thank you for calling Acme',
      start: 0,
      end: 4,
    });
    const three = stereo([
      [0, 1, 'agent', 'thank you'],
      [1.1, 1.5, 'agent', 'for'],
      [1.6, 3, 'agent', 'calling Acme.'],
    ]);
    expect(findPhrases(three.segments, ['thank you for calling acme'])[0]!.quote).toBe('thank you for calling Acme.');
    const crossed = stereo([
      [0, 2, 'agent', 'thank you for'],
      [2.2, 4, 'customer', 'calling Acme'],
    ]);
    expect(findPhrases(crossed.segments, ['thank you for calling acme'])).toHaveLength(0);
  });

  it("never joins a speaker's turns across the other speaker's line: a near match over them is no doubt", () => {
    // The agent's opening and next turn, the customer's line between them left out (a criterion scoped to
    // the agent): "I help? Okay" is no near "I understand" over the unsure "Okay".
    const agent = stereo([
      [0.5, 2.8, 'agent', 'Hi there, how may I help?'],
      [6.9, 9.2, 'agent', 'Okay, who am I speaking with?'],
    ]).segments.map((s, i) => (i === 1 ? { ...s, uncertainWords: [0] } : s));
    expect(findPhrases(agent, ['I understand'], { nearUncertain: true })).toEqual([]);
    // A pause inside a turn still joins its parts.
    const paused = stereo([
      [0.5, 2, 'agent', 'Thank you for'],
      [2.8, 4, 'agent', 'calling Acme'],
    ]);
    expect(findPhrases(paused.segments, ['thank you for calling acme'])).toHaveLength(1);
  });

  it('counts overlapping phrases once and repeated phrases each time', () => {
    const call = stereo([[0, 10, 'agent', 'Thank you for calling. Thank you!']]);
    const matches = findPhrases(call.segments, ['thank you', 'thank you for calling']);
    expect(matches.map((m) => m.phrase)).toEqual(['thank you for calling', 'thank you']);
  });
});

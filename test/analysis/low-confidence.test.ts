// Issue 18 point 6: a criterion that fails only on words the recogniser was unsure of is marked
// low_confidence (and so goes to the review queue) instead of failing silently.
import { describe, expect, it } from 'vitest';
import { analyzeCall } from '../../src/analysis/index.ts';
import type { AnalysisInput } from '../../src/analysis/index.ts';
import { template } from './helpers.ts';

const base = { label: 'Criterion', weight: 1 } as const;
const greeting = {
  ...base,
  key: 'greeting',
  kind: 'phrase' as const,
  speaker: 'agent' as const,
  phrases: ['thank you for calling'],
};

/** One agent line; `unsure` are indexes into text.split(' ') the recogniser was unsure of. */
function call(text: string, unsure?: number[]): AnalysisInput {
  return {
    segments: [
      { start: 0, end: 4, speaker: 'agent', channel: 0, text, ...(unsure ? { uncertainWords: unsure } : {}) },
      { start: 4.5, end: 6, speaker: 'customer', channel: 1, text: 'Hi, I have a question.' },
    ],
    durationSeconds: 6,
    channels: 2,
    language: 'en',
  };
}

async function greetingResult(input: AnalysisInput) {
  const r = await analyzeCall(input, template({ criteria: [greeting] }));
  return r.criteria[0]!;
}

describe('failures that rest on unsure words', () => {
  it('a missing phrase whose missing words were heard unsure is low confidence', async () => {
    // "thank you for calling" heard as "thank you four colleague" with the last two words unsure.
    const c = await greetingResult(call('Thank you four colleague Acme, this is Laura.', [2, 3]));
    expect(c).toMatchObject({ result: 'failed', low_confidence: true });
  });

  it('the same mishearing with confident words is a plain fail', async () => {
    const c = await greetingResult(call('Thank you four colleague Acme, this is Laura.'));
    expect(c.result).toBe('failed');
    expect(c.low_confidence).toBeUndefined();
  });

  it('unsure words elsewhere in the call do not make a fail low confidence', async () => {
    const c = await greetingResult(call('Hello, Acme support, this is Laura speaking today.', [5, 6]));
    expect(c.result).toBe('failed');
    expect(c.low_confidence).toBeUndefined();
  });

  it('at least half of the phrase must be heard as written: unsure words alone do not make it', async () => {
    // Only "you" is heard for sure: 1 of 4 words.
    const c = await greetingResult(call('Frank you four colleague Acme.', [0, 2, 3]));
    expect(c.low_confidence).toBeUndefined();
  });

  it('a passed criterion is never marked', async () => {
    const c = await greetingResult(call('Thank you for calling Acme.', [2]));
    expect(c.result).toBe('passed');
    expect(c.low_confidence).toBeUndefined();
  });

  it('a forbidden phrase heard only through unsure words is low confidence; a sure one is not', async () => {
    const forbidden = {
      ...base,
      key: 'polite',
      kind: 'forbidden' as const,
      speaker: 'agent' as const,
      phrases: ['shut up'],
    };
    const unsure = await analyzeCall(call('Please shut up and listen.', [1]), template({ criteria: [forbidden] }));
    expect(unsure.criteria[0]).toMatchObject({ result: 'failed', low_confidence: true });
    const sure = await analyzeCall(call('Please shut up and listen.', [4]), template({ criteria: [forbidden] }));
    expect(sure.criteria[0]!.result).toBe('failed');
    expect(sure.criteria[0]!.low_confidence).toBeUndefined();
  });
});

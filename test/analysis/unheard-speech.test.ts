// Issue 27: under loud babble the recogniser ends at once on whole agent turns, even where the voice
// detector is sure the agent is talking (src/audio/babble.ts). Such a turn reaches the transcript as a
// guess (Segment.guessed): no words, or the decoder's best guess with every word uncertain. A guess is
// never taken as the agent's words by the text (neither to pass a phrase nor to fail a forbidden one);
// a phrase criterion that would fail while the agent spoke unheard in its window goes to a person as
// unsure instead of failing an agent who may well have greeted.
import { describe, expect, it } from 'vitest';
import { HEARD_MARGIN, UNSURE_MARGIN, type AudioScorer } from '../../src/analysis/acoustic.ts';
import { analyzeCall } from '../../src/analysis/index.ts';
import { callSentiment } from '../../src/analysis/sentiment.ts';
import { extractiveSummary } from '../../src/analysis/summary.ts';
import type { AnalysisInput } from '../../src/analysis/types.ts';
import { stereo, template } from './helpers.ts';

const greetingTemplate = template({
  criteria: [
    {
      key: 'greeting',
      label: 'Greets with the company name',
      kind: 'phrase',
      speaker: 'agent',
      weight: 3,
      window: { from: 'start', seconds: 30 },
      phrases: ['thank you for calling Acme'],
    },
    {
      key: 'no_rudeness',
      label: 'No rudeness',
      kind: 'forbidden',
      speaker: 'agent',
      critical: true,
      weight: 2,
      phrases: ['not my problem'],
    },
  ],
});

/** The agent's first turn as the recogniser left it under babble: `text` ('' = no words at all). */
function babbleCall(text: string): AnalysisInput {
  const call = stereo(
    [
      [0.5, 3.5, 'agent', text],
      [4, 7, 'customer', 'Hi, my internet has not been working since yesterday.'],
      [50, 53, 'agent', 'Okay, let me take a look at that.'],
    ],
    60,
  );
  const first = call.segments[0]!;
  call.segments[0] = {
    ...first,
    guessed: true,
    ...(text ? { uncertainWords: text.split(' ').map((_, i) => i) } : {}),
  };
  return call;
}

const criterion = (r: Awaited<ReturnType<typeof analyzeCall>>, key: string) => r.criteria.find((c) => c.key === key)!;

describe('speech the recogniser heard no words in', () => {
  it('sends the greeting to review as unsure instead of failing the agent', async () => {
    const r = await analyzeCall(babbleCall(''), greetingTemplate);
    expect(criterion(r, 'greeting')).toMatchObject({
      result: 'failed',
      low_confidence: true,
      reason_code: 'phrase_unheard_speech',
      reason_params: { at: '00:00' },
    });
    expect(criterion(r, 'greeting').reason).toMatch(
      /^unsure: no words could be recognised in speech at 00:00.*a person should listen/,
    );
    // The same call where the turn was heard as words without the phrase: an ordinary fail.
    const heard = stereo([
      [0.5, 3.5, 'agent', 'Hello, how can I help you today?'],
      [50, 53, 'agent', 'Okay, let me take a look at that.'],
    ]);
    const plain = criterion(await analyzeCall(heard, greetingTemplate), 'greeting');
    expect(plain).toMatchObject({ result: 'failed', reason_code: 'phrase_missing' });
    expect(plain.low_confidence).toBeUndefined();
  });

  it('never passes a phrase, nor fails a forbidden one, on the words of a guess', async () => {
    const r = await analyzeCall(babbleCall('Thank you for calling Acme, not my problem.'), greetingTemplate);
    expect(criterion(r, 'greeting')).toMatchObject({ result: 'failed', low_confidence: true });
    expect(criterion(r, 'no_rudeness')).toMatchObject({ result: 'passed', reason_code: 'forbidden_none' });
  });

  it('passes the greeting when the audio of the guessed turn supports the phrase', async () => {
    // The guess resembles the greeting; the recogniser finds the phrase as likely as its guess.
    const audio: AudioScorer = {
      async score(jobs) {
        return jobs.map(({ segment, texts }) =>
          texts.map((t) => (t === segment.text ? -20 : /calling Acme/.test(t) ? -21 : -60)),
        );
      },
    };
    const r = await analyzeCall(babbleCall('And you for calling at me.'), greetingTemplate, { audio });
    expect(criterion(r, 'greeting')).toMatchObject({ result: 'passed', reason_code: 'phrase_heard_in_audio' });
  });

  it('gives an unheard turn to the one criterion whose phrases its audio finds likeliest', async () => {
    const twoPhrases = template({
      criteria: [
        {
          key: 'greeting',
          label: 'Greets with the company name',
          kind: 'phrase',
          speaker: 'agent',
          weight: 3,
          window: { from: 'start', seconds: 30 },
          phrases: ['thank you for calling Acme'],
        },
        {
          key: 'closing',
          label: 'Offers further help',
          kind: 'phrase',
          speaker: 'agent',
          weight: 2,
          window: { from: 'end', seconds: 60 },
          phrases: ['is there anything else'],
        },
      ],
    });
    const asked: string[][] = [];
    const audio = (likeliest: RegExp): AudioScorer => ({
      async score(jobs) {
        return jobs.map(({ segment, texts }) => {
          asked.push([...texts]);
          // The unheard turn sounds like `likeliest`; elsewhere the transcript as heard is the likeliest.
          return texts.map((t) => (t === segment.text ? 0 : segment.guessed && likeliest.test(t) ? -8 : -30));
        });
      },
    });
    const greeted = await analyzeCall(babbleCall(''), twoPhrases, { audio: audio(/calling Acme/) });
    expect(criterion(greeted, 'greeting')).toMatchObject({
      low_confidence: true,
      reason_code: 'phrase_unheard_speech',
    });
    expect(criterion(greeted, 'closing')).toMatchObject({ result: 'failed', reason_code: 'phrase_missing' });
    expect(criterion(greeted, 'closing').low_confidence).toBeUndefined();
    expect(asked).toContainEqual(['Thank you for calling Acme.', 'Is there anything else.']);

    const closed = await analyzeCall(babbleCall(''), twoPhrases, { audio: audio(/anything else/) });
    expect(criterion(closed, 'closing')).toMatchObject({ low_confidence: true, reason_code: 'phrase_unheard_speech' });
    expect(criterion(closed, 'greeting').low_confidence).toBeUndefined();
    // Without the recording nobody can tell which: both go to a person.
    const textOnly = await analyzeCall(babbleCall(''), twoPhrases);
    expect(textOnly.criteria.map((c) => c.low_confidence)).toEqual([true, true]);

    // The closing is already unsure (the audio may find it in the agent's last turn) and the unheard turn
    // sounds like the closing too: it puts no other criterion in review, so the greeting fails plainly.
    const alreadyUnsure: AudioScorer = {
      // One token a phrase: the margins below are per token, as the thresholds are.
      tokens: () => 1,
      async score(jobs) {
        return jobs.map(({ segment, texts }) =>
          texts.map((t) => {
            if (t === segment.text) return 0;
            if (segment.guessed) return /anything else/.test(t) ? -8 : -30;
            return /anything else/.test(t) ? (HEARD_MARGIN + UNSURE_MARGIN) / 2 : -30;
          }),
        );
      },
    };
    const r = await analyzeCall(babbleCall(''), twoPhrases, { audio: alreadyUnsure });
    expect(criterion(r, 'closing')).toMatchObject({ low_confidence: true, reason_code: 'phrase_unsure' });
    expect(criterion(r, 'greeting')).toMatchObject({ result: 'failed', reason_code: 'phrase_missing' });
    expect(criterion(r, 'greeting').low_confidence).toBeUndefined();
  });

  it('leaves a greeting outside the unheard turn’s window failed as before', async () => {
    const call = babbleCall('');
    call.segments[0] = { ...call.segments[0]!, start: 40, end: 43 };
    const greeting = criterion(await analyzeCall(call, greetingTemplate), 'greeting');
    expect(greeting).toMatchObject({ result: 'failed', reason_code: 'phrase_missing' });
    expect(greeting.low_confidence).toBeUndefined();
  });

  it('reads no sentiment and quotes no summary from a guess', () => {
    const call = babbleCall('That is not my problem, calm down.');
    const sentiment = callSentiment(call);
    expect(sentiment.segments[0]).toEqual({ label: 'neutral', score: 0 });
    expect(sentiment.agent?.label).not.toBe('negative');
    expect(extractiveSummary(call.segments, 'en')).not.toMatch(/problem/);
    // The same words heard for real are read and can be quoted.
    call.segments[0] = { ...call.segments[0]!, guessed: false };
    expect(callSentiment(call).segments[0]!.label).toBe('negative');
  });
});

import { describe, expect, it } from 'vitest';
import { speak, synth } from '../fixtures/audio.ts';
import { decodeAudio } from '../../src/audio/decode.ts';
import { SpeechTracker, detectSpeech, regionsFromProbabilities } from '../../src/audio/vad.ts';

const mono = async (file: string) => (await decodeAudio(file)).channels[0]!;
const WINDOW = 512 / 16000;

describe('detectSpeech (Silero v5)', () => {
  it('finds the spoken sentence in espeak speech', async () => {
    const samples = await mono(
      await speak('Thank you for calling, my name is Laura and I will help you today.', { voice: 'en' }),
    );
    const regions = await detectSpeech(samples);
    expect(regions.length).toBeGreaterThanOrEqual(1);
    const covered = regions.reduce((s, r) => s + r.end - r.start, 0);
    expect(covered / (samples.length / 16000)).toBeGreaterThan(0.7);
  });

  it.each(['silence', 'tone', 'music'] as const)('finds no speech in 5 s of %s', async (kind) => {
    expect(await detectSpeech(await mono(await synth(kind, 5)))).toEqual([]);
  });
});

describe('SpeechTracker (streaming)', () => {
  it('finds the regions of the whole recording when fed in small blocks, and hands out their audio', async () => {
    // Three sentences with long pauses and one sentence over the 25 s cap, fed 0.7 s at a time.
    const parts = await Promise.all(
      [
        'Good morning, this is the billing department.',
        'I would like to ask about the charge on my last invoice please.',
        'Of course, let me look that up for you right now.',
      ].map(async (t) => mono(await speak(t, { voice: 'en' }))),
    );
    const pause = new Float32Array(3 * 16000);
    const long = await mono(
      await speak(Array(10).fill('The router keeps restarting every evening after seven').join(' and '), {
        voice: 'en',
      }),
    );
    const whole = concat([pause, parts[0]!, pause, parts[1]!, pause, parts[2]!, pause, long, pause]);
    const expected = await detectSpeech(whole);
    expect(expected.length).toBeGreaterThanOrEqual(5);

    const tracker = new SpeechTracker();
    const got: { start: number; end: number; samples: Float32Array }[] = [];
    const block = Math.round(0.7 * 16000);
    for (let at = 0; at < whole.length; at += block) got.push(...(await tracker.push(whole.subarray(at, at + block))));
    got.push(...(await tracker.end()));

    const ms = (r: { start: number; end: number }) => [Math.round(r.start * 1000), Math.round(r.end * 1000)];
    expect(got.map(ms)).toEqual(expected.map(ms));
    for (const r of got) {
      expect(r.samples.length).toBe(Math.ceil(r.end * 16000) - Math.floor(r.start * 16000));
      expect(r.samples).toEqual(whole.subarray(Math.floor(r.start * 16000), Math.ceil(r.end * 16000)));
    }
  });
});

describe('background talkers (babble)', () => {
  // One speaker close to the microphone, two sentences with 4 s between them, over a bed of five other
  // voices talking at once through the whole recording, 10 dB below the speaker.
  const babbleCall = async () => {
    const talkers = await Promise.all(
      (
        [
          ['en-us+m1', 'Well I told him the meeting was moved to Friday but he never listens to anything I say.'],
          ['en-gb+f2', 'We should order more paper for the printer before the end of the quarter, it is nearly empty.'],
          ['es+m2', 'Mañana voy a llegar un poco más tarde porque tengo que llevar el coche al taller.'],
          ['en+f4', 'Did you see the game last night? It went to extra time and nobody could believe it.'],
          ['en-us+m4', 'Can somebody tell me where the new coffee machine is, the old one is broken again.'],
        ] as const
      ).map(async ([voice, text]) => mono(await speak(text, { voice }))),
    );
    const [first, second] = await Promise.all(
      ['Thank you for calling Acme, how can I help you today?', 'Is there anything else I can help you with?'].map(
        async (t) => mono(await speak(t, { voice: 'en-gb+m4' })),
      ),
    );
    const pause = 4 * 16000;
    const lead = Math.round(0.6 * 16000);
    const speaker = concat([new Float32Array(lead), first!, new Float32Array(pause), second!, new Float32Array(lead)]);
    const bed = new Float32Array(speaker.length);
    talkers.forEach((t, k) => {
      const shift = Math.floor((k / talkers.length) * t.length);
      for (let i = 0; i < bed.length; i++) bed[i]! += t[(i + shift) % t.length]!;
    });
    const power = (x: Float32Array) => x.reduce((a, v) => a + v * v, 0) / x.length;
    const gain = Math.sqrt(power(concat([first!, second!])) / (power(bed) * 10));
    const mixed = speaker.map((v, i) => v + gain * bed[i]!);
    const firstEnd = (lead + first!.length) / 16000;
    return { mixed, pause: [firstEnd, firstEnd + pause / 16000] as const };
  };

  it('ends the first sentence in the pause instead of running through the other voices', async () => {
    const { mixed, pause } = await babbleCall();
    // The longest stretch of the 4 s pause (only the other talkers are heard there) left out of every region.
    const freeInPause = (rs: { start: number; end: number }[]) => {
      let longest = 0;
      let from = pause[0];
      for (const r of [
        ...rs.filter((r) => r.end > pause[0] && r.start < pause[1]),
        { start: pause[1], end: pause[1] },
      ]) {
        longest = Math.max(longest, Math.min(r.start, pause[1]) - from);
        from = Math.max(from, r.end);
      }
      return longest;
    };
    // Silero alone hears the other talkers as speech all through the pause.
    expect(freeInPause(await detectSpeech(mixed, { babbleGate: false }))).toBeLessThan(0.5);
    const regions = await detectSpeech(mixed, { babbleGate: true });
    expect(freeInPause(regions)).toBeGreaterThan(2.5);
    // The 0.6 s of other voices before the first sentence is not a region (nor its start).
    expect(regions[0]!.start).toBeGreaterThan(0.3);
    // Both sentences are still heard whole.
    expect(regions.some((r) => r.start <= 0.7 && r.end >= pause[0] - 0.1)).toBe(true);
    expect(regions.some((r) => r.start <= pause[1] + 0.1 && r.end >= mixed.length / 16000 - 0.7)).toBe(true);
  });

  it('finds the same regions when the recording is streamed in small blocks', async () => {
    const { mixed } = await babbleCall();
    const tracker = new SpeechTracker({ babbleGate: true });
    const got: { start: number; end: number }[] = [];
    const block = Math.round(0.7 * 16000);
    for (let at = 0; at < mixed.length; at += block) got.push(...(await tracker.push(mixed.subarray(at, at + block))));
    got.push(...(await tracker.end()));
    const ms = (r: { start: number; end: number }) => [Math.round(r.start * 1000), Math.round(r.end * 1000)];
    expect(got.map(ms)).toEqual((await detectSpeech(mixed, { babbleGate: true })).map(ms));
  });
});

function concat(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

describe('regionsFromProbabilities', () => {
  const probs = (spec: [number, number][]) => Float32Array.from(spec.flatMap(([p, n]) => Array<number>(n).fill(p)));

  it('bridges short dips, drops short bursts and pads', () => {
    // 1 s speech, 0.2 s dip (shorter than min silence), 1 s speech, 2 s silence, 0.1 s click, 1 s silence
    const p = probs([
      [0, 31],
      [0.9, 31],
      [0.1, 6],
      [0.9, 31],
      [0.05, 62],
      [0.95, 3],
      [0.05, 31],
    ]);
    const regions = regionsFromProbabilities(p, p.length * WINDOW);
    expect(regions).toHaveLength(1);
    expect(regions[0]!.start).toBeCloseTo(31 * WINDOW - 0.2, 1);
    expect(regions[0]!.end).toBeCloseTo(99 * WINDOW + 0.2, 1);
  });

  it('keeps speech between the two thresholds going (hysteresis)', () => {
    const p = probs([
      [0.9, 20],
      [0.4, 40],
      [0.9, 20],
      [0, 40],
    ]);
    expect(regionsFromProbabilities(p, p.length * WINDOW)).toHaveLength(1);
  });

  it('splits long speech at its least speech-like point, each piece within the limit', () => {
    // 40 s of speech with a weak moment at 18 s
    const p = probs([
      [0.9, 562],
      [0.4, 2],
      [0.9, 686],
    ]);
    const regions = regionsFromProbabilities(p, p.length * WINDOW, { maxRegionSeconds: 25, padSeconds: 0 });
    expect(regions).toHaveLength(2);
    expect(regions[0]!.end).toBeCloseTo(562 * WINDOW, 1);
    expect(regions[1]!.start).toBe(regions[0]!.end);
    for (const r of regions) expect(r.end - r.start).toBeLessThanOrEqual(25);
  });
});

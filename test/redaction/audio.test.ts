// The redacted copy of a recording (issue 14): inside each span the speech is gone and a 1 kHz tone
// says something was removed (a beep, not a gap that sounds like a dropped line); outside the spans
// the recording is as it was. Measured on the decoded Ogg/Opus copy, as a listener would hear it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveDecoder } from '../../src/audio/binaries.ts';
import { writeRedactedAudio } from '../../src/redaction/audio.ts';
import { pcm16k, synth, toneAmplitude } from '../fixtures/audio.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'escucha-redacted-audio-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('redacted audio', () => {
  it('beeps over each span and leaves the rest as it was', async () => {
    // A 440 Hz "voice" at half scale for 4 s; two spans are redacted.
    const input = await synth('tone', 4);
    const output = path.join(dir, 'call.redacted.ogg');
    await writeRedactedAudio(resolveDecoder(), input, output, [
      { kind: 'card_number', start: 1, end: 2 },
      { kind: 'cvv', start: 3, end: 3.5 },
    ]);
    const heard = await pcm16k(output);
    expect(heard.length / 16000).toBeCloseTo(4, 1);
    const at = (hz: number, from: number, to: number) => toneAmplitude(heard, hz, from, to);

    // Outside the spans: the voice, and no beep.
    for (const [from, to] of [
      [0.25, 0.75],
      [2.25, 2.75],
      [3.7, 3.95],
    ] as const) {
      expect(at(440, from, to), `voice at ${from}s`).toBeGreaterThan(0.35);
      expect(at(1000, from, to), `beep at ${from}s`).toBeLessThan(0.005);
    }
    // Inside: the voice is gone and a beep is there instead, loud enough to hear over a phone line:
    // ffmpeg's sine source at 1/8 of full scale (0.125, −18 dBFS), about the level of speech.
    for (const [from, to] of [
      [1.25, 1.75],
      [3.1, 3.4],
    ] as const) {
      expect(at(440, from, to), `voice at ${from}s`).toBeLessThan(0.005);
      expect(at(1000, from, to), `beep at ${from}s`).toBeGreaterThan(0.08);
      expect(at(1000, from, to), `beep at ${from}s`).toBeLessThan(0.3);
    }
  });
});

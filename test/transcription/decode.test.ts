import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIO_FORMATS, convert, makeStereoCall, speak } from '../fixtures/audio.ts';
import { TooLongError, UndecodableAudioError, decodeAudio, probeAudio } from '../../src/audio/decode.ts';

let stereo: string;
let expectedSeconds: number;

beforeAll(async () => {
  stereo = await makeStereoCall([
    { speaker: 'agent', text: 'Good morning, how can I help you?', voice: 'en' },
    { speaker: 'customer', text: 'I would like to cancel my order.', voice: 'en' },
  ]);
  expectedSeconds = (await probeAudio(stereo)).durationSeconds;
});

describe('decodeAudio', () => {
  it.each(AUDIO_FORMATS)('decodes %s to 16 kHz float channels of the right length', async (format) => {
    const file = await convert(stereo, format);
    const audio = await decodeAudio(file);
    expect(audio.sampleRate).toBe(16000);
    // AMR is narrow-band mono by nature; everything else keeps the call's two channels.
    expect(audio.channels).toHaveLength(format === 'amr' ? 1 : 2);
    expect(audio.channels[0]!.length).toBe(Math.round(audio.durationSeconds * 16000));
    // Lossy codecs add encoder delay/padding of some tens of milliseconds.
    expect(Math.abs(audio.durationSeconds - expectedSeconds)).toBeLessThan(0.15);
    const peak = audio.channels[0]!.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    expect(peak).toBeGreaterThan(0.05);
    expect(peak).toBeLessThanOrEqual(1.01);
  });

  it('keeps mono as one channel and downmixes more than two', async () => {
    const mono = await speak('One channel only.', { voice: 'en' });
    expect((await decodeAudio(mono)).channels).toHaveLength(1);
    const dir = await mkdtemp(path.join(tmpdir(), 'decode-'));
    const six = path.join(dir, 'surround.flac');
    await promisify(execFile)('ffmpeg', [
      '-v',
      'error',
      '-i',
      mono,
      '-af',
      'pan=5.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0',
      six,
    ]);
    expect((await probeAudio(six)).channels).toBe(6);
    expect((await decodeAudio(six)).channels).toHaveLength(2);
  });

  it('rejects garbage named .mp3 and files without audio as undecodable', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'decode-'));
    const garbage = path.join(dir, 'call.mp3');
    await writeFile(garbage, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251)));
    await expect(decodeAudio(garbage)).rejects.toBeInstanceOf(UndecodableAudioError);
    await expect(decodeAudio(garbage)).rejects.toMatchObject({ reason: 'undecodable' });

    const video = path.join(dir, 'silent-film.mp4');
    await promisify(execFile)('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'color=c=black:s=32x32:d=1',
      '-c:v',
      'mpeg4',
      video,
    ]);
    await expect(decodeAudio(video)).rejects.toBeInstanceOf(UndecodableAudioError);
    await expect(decodeAudio(path.join(dir, 'missing.wav'))).rejects.toBeInstanceOf(UndecodableAudioError);
  });

  it('rejects recordings longer than the limit', async () => {
    await expect(decodeAudio(stereo, { maxDurationSeconds: 2 })).rejects.toBeInstanceOf(TooLongError);
    await expect(decodeAudio(stereo, { maxDurationSeconds: 2 })).rejects.toMatchObject({ reason: 'too_long' });
  });
});

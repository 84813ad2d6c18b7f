import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeStereoCall, speak, synth, turnSpans, type Turn } from '../fixtures/audio.ts';
import {
  NoSpeechError,
  UndecodableAudioError,
  UnsupportedLanguageError,
  createEngines,
  resolveModelsDir,
  transcribeFile,
} from '../../src/transcription/index.ts';
import { keywordRecall, words } from './words.ts';

// One engine for the whole file: models load once, as in the worker.
const engines = createEngines({ engine: 'moonshine', modelsDir: resolveModelsDir() });

const EN = 'Thank you for calling customer service. Your refund will arrive within five business days.';
const ES = 'Buenas tardes, le llamo porque mi factura de este mes es demasiado alta y quiero una explicación.';

describe('transcribeFile with Moonshine', () => {
  it('covers the languages of the model folders present', () => {
    expect(engines[0]!.languages).toEqual(['en', 'es']);
  });

  it('transcribes an English sentence and detects English', async () => {
    const result = await transcribeFile(await speak(EN, { voice: 'en' }), { engines, agentChannel: 'left' });
    expect(result.language).toBe('en');
    expect(result.channels).toBe(1);
    expect(result.segments.every((s) => s.speaker === 'speaker' && s.channel === 0)).toBe(true);
    const text = result.segments.map((s) => s.text).join(' ');
    expect(
      keywordRecall(text, words('thank calling customer service refund arrive within five business days')),
    ).toBeGreaterThanOrEqual(0.8);
  });

  it('transcribes a Spanish sentence and detects Spanish', async () => {
    const result = await transcribeFile(await speak(ES, { voice: 'es' }), { engines, agentChannel: 'left' });
    expect(result.language).toBe('es');
    const text = result.segments.map((s) => s.text).join(' ');
    expect(
      keywordRecall(text, words('buenas tardes llamo factura este mes demasiado alta quiero explicación')),
    ).toBeGreaterThanOrEqual(0.8);
  });

  it('uses the requested language without detection', async () => {
    const result = await transcribeFile(await speak(ES, { voice: 'es' }), {
      engines,
      language: 'es',
      agentChannel: 'left',
    });
    expect(result.language).toBe('es');
    expect(keywordRecall(result.segments.map((s) => s.text).join(' '), ['factura', 'demasiado'])).toBe(1);
  });

  it('labels a stereo call by channel, in time order', async () => {
    const turns: Turn[] = [
      { speaker: 'agent', text: 'Good afternoon, you are speaking with Daniel. How may I help?', voice: 'en' },
      { speaker: 'customer', text: 'Hello, my internet connection keeps dropping every evening.', voice: 'en' },
      { speaker: 'agent', text: 'I am sorry about that. I will run a line test now.', voice: 'en' },
      { speaker: 'customer', text: 'Thank you, I will wait.', voice: 'en' },
    ];
    const file = await makeStereoCall(turns);
    const spans = await turnSpans(turns);
    for (const agentChannel of ['left', 'right'] as const) {
      const result = await transcribeFile(file, { engines, language: 'en', agentChannel });
      expect(result.channels).toBe(2);
      expect(result.segments).toHaveLength(turns.length);
      result.segments.forEach((seg, i) => {
        const turn = turns[i]!;
        expect(seg.channel).toBe(turn.speaker === 'agent' ? 0 : 1);
        const flipped = turn.speaker === 'agent' ? 'customer' : 'agent';
        expect(seg.speaker).toBe(agentChannel === 'left' ? turn.speaker : flipped);
        expect(seg.start).toBeGreaterThan(spans[i]!.start - 0.5);
        expect(seg.end).toBeLessThan(spans[i]!.end + 0.5);
        expect(keywordRecall(seg.text, words(turn.text))).toBeGreaterThanOrEqual(0.6);
      });
      const starts = result.segments.map((s) => s.start);
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
    }
  });

  it('fails with no_speech on silence and on hold music', async () => {
    for (const kind of ['silence', 'music'] as const) {
      const err = await transcribeFile(await synth(kind, 5), { engines, agentChannel: 'left' }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(NoSpeechError);
      expect(err).toMatchObject({ reason: 'no_speech' });
    }
  });

  it('fails with unsupported_language for a language no engine covers', async () => {
    const err = await transcribeFile(await speak(EN, { voice: 'en' }), {
      engines,
      language: 'fr',
      agentChannel: 'left',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsupportedLanguageError);
    expect(err).toMatchObject({ reason: 'unsupported_language' });
  });

  it('fails with undecodable on garbage bytes named .mp3', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'transcribe-')), 'call.mp3');
    await writeFile(file, Buffer.alloc(10_000, 0x5a));
    await expect(transcribeFile(file, { engines, agentChannel: 'left' })).rejects.toBeInstanceOf(UndecodableAudioError);
  });
});

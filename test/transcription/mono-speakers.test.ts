// transcribeFile on mono recordings with speaker separation on (src/audio/diarize.ts): two different
// voices become agent and customer in the order spoken; one voice stays one "speaker", with its
// (low) confidence reported.
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createEngines, resolveModelsDir, transcribeFile } from '../../src/transcription/index.ts';
import { makeStereoCall, type Turn } from '../fixtures/audio.ts';

const run = promisify(execFile);
const engines = createEngines({ engine: 'moonshine', modelsDir: resolveModelsDir() });

/** The call's two channels mixed into one, as a PBX that records a single channel. */
async function mono(turns: Turn[]): Promise<string> {
  const out = path.join(await mkdtemp(path.join(tmpdir(), 'escucha-mono-')), 'mono.wav');
  await run('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', await makeStereoCall(turns), '-ac', '1', out]);
  return out;
}

const LINES = [
  'Buenos días, gracias por llamar a Acme. Le atiende Lucía, en qué puedo ayudarle?',
  'Hola, tengo un problema con la factura de este mes.',
  'Lo siento mucho. Ahora mismo reviso su factura y le devuelvo el cargo.',
  'Perfecto, muchas gracias.',
];

describe('mono speakers', () => {
  it('separates a man and a woman into agent and customer turns in Spanish', async () => {
    const turns = LINES.map(
      (text, i): Turn => ({ speaker: i % 2 ? 'customer' : 'agent', voice: i % 2 ? 'es+f4' : 'es', text }),
    );
    const result = await transcribeFile(await mono(turns), { engines, language: 'es', diarize: true });
    expect(result.channels).toBe(1);
    expect(result.diarization?.separated).toBe(true);
    expect(result.diarization!.confidence).toBeGreaterThanOrEqual(0.5);
    const speakers = result.segments.map((s) => s.speaker);
    expect(speakers.filter((s, i) => s !== speakers[i - 1])).toEqual(['agent', 'customer', 'agent', 'customer']);
  });

  it('keeps one voice as one speaker and says how unsure a split would be', async () => {
    const turns = LINES.map((text, i): Turn => ({ speaker: i % 2 ? 'customer' : 'agent', voice: 'es', text }));
    const result = await transcribeFile(await mono(turns), { engines, language: 'es', diarize: true });
    expect(result.diarization?.separated).toBe(false);
    expect(result.diarization!.confidence).toBeLessThan(0.5);
    expect(result.segments.every((s) => s.speaker === 'speaker')).toBe(true);
  });
});

// The account's words through the real recogniser: an unusual name is heard with the vocabulary,
// and a vocabulary of words the call does not say changes nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { MoonshineEngine } from '../../src/transcription/moonshine.ts';
import { resolveModelsDir, transcribeFile } from '../../src/transcription/index.ts';
import { speak } from '../fixtures/audio.ts';

const engine = new MoonshineEngine({ modelsDir: resolveModelsDir(), concurrency: 1 });
let greeting: string;

beforeAll(async () => {
  greeting = await speak('Welcome to Bolt Fibrenet, my name is Jurgita.', { voice: 'en' });
});

const text = async (vocabulary?: string[]) =>
  (
    await transcribeFile(greeting, { engines: [engine], language: 'en', ...(vocabulary ? { vocabulary } : {}) })
  ).segments
    .map((s) => s.text)
    .join(' ');

describe('vocabulary biasing', () => {
  it("hears the agent's unusual name once it is on the list", async () => {
    expect(await text()).not.toMatch(/Jurgita/);
    expect(await text(['Jurgita'])).toMatch(/my name is Jurgita/);
  });

  it('leaves a transcript alone when none of the listed words is said', async () => {
    expect(await text(['Zentrix Telecom', 'Quorvo', 'mortgage', 'Kazimierz'])).toBe(await text());
  });
});

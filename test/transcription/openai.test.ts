import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { speak } from '../fixtures/audio.ts';
import { EngineError, UnsupportedLanguageError } from '../../src/transcription/engine.ts';
import { OpenAiEngine } from '../../src/transcription/openai.ts';
import { transcribeFile } from '../../src/transcription/transcribe.ts';

const BASE = 'https://stt.example.test/v1';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

// Reads the upload before answering, as a real server does; answering mid-upload makes msw's
// interceptor and got race on the request stream.
const answer = (response: () => Response) =>
  http.post(`${BASE}/audio/transcriptions`, async ({ request }) => {
    await request.arrayBuffer();
    return response();
  });

const engine = new OpenAiEngine({ baseUrl: `${BASE}/`, apiKey: 'sk-test', model: 'whisper-large-v3', retries: 0 });
const second = Float32Array.from({ length: 16000 }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 220 * i) / 16000));

describe('OpenAiEngine', () => {
  it('posts the chunk as a 16 kHz WAV in a multipart form with auth and parses verbose_json', async () => {
    let seen: { auth: string | null; fields: Record<string, string>; file?: File } | undefined;
    server.use(
      http.post(`${BASE}/audio/transcriptions`, async ({ request }) => {
        const form = await request.formData();
        const fields: Record<string, string> = {};
        form.forEach((v, k) => {
          if (typeof v === 'string') fields[k] = v;
        });
        seen = { auth: request.headers.get('authorization'), fields, file: form.get('file') as File };
        return HttpResponse.json({
          task: 'transcribe',
          language: 'spanish',
          duration: 1,
          text: ' Hola, buenos días. Gracias.',
          segments: [
            { id: 0, start: 0, end: 0.6, text: ' Hola, buenos días.', avg_logprob: -0.2, no_speech_prob: 0.01 },
            { id: 1, start: 0.6, end: 1, text: ' Gracias.', avg_logprob: -0.4, no_speech_prob: 0.1 },
            // Whisper's typical hallucination on a silent tail: dropped
            { id: 2, start: 1, end: 1, text: ' Subtítulos por la comunidad.', avg_logprob: -1.3, no_speech_prob: 0.9 },
          ],
        });
      }),
    );
    const result = await engine.transcribeChunk(second, 'es');
    expect(seen?.auth).toBe('Bearer sk-test');
    expect(seen?.fields).toMatchObject({ model: 'whisper-large-v3', response_format: 'verbose_json', language: 'es' });
    const wav = Buffer.from(await seen!.file!.arrayBuffer());
    expect(seen!.file!.name).toBe('chunk.wav');
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(24)).toBe(16000);
    expect(wav.length).toBe(44 + 2 * second.length);
    expect(result).toEqual({
      text: 'Hola, buenos días. Gracias.',
      avgLogProb: expect.closeTo(-0.3, 5),
      language: 'es',
    });
  });

  it('leaves the language out when detecting and reports the detected code', async () => {
    let fields: string[] = [];
    server.use(
      http.post(`${BASE}/audio/transcriptions`, async ({ request }) => {
        fields = [...(await request.formData()).keys()];
        return HttpResponse.json({ text: 'Bon dia', language: 'ca' });
      }),
    );
    expect(await engine.transcribeChunk(second, null)).toEqual({ text: 'Bon dia', avgLogProb: 0, language: 'ca' });
    expect(fields).not.toContain('language');
  });

  it('maps API errors to EngineError with the API message, retryable only for 429 and 5xx', async () => {
    server.use(answer(() => HttpResponse.json({ error: { message: 'Invalid API key' } }, { status: 401 })));
    await expect(engine.transcribeChunk(second, 'en')).rejects.toMatchObject({
      reason: 'engine_error',
      retryable: false,
      message: expect.stringContaining('401: Invalid API key'),
    });

    server.use(answer(() => new HttpResponse('upstream overloaded', { status: 503 })));
    const err = await engine.transcribeChunk(second, 'en').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({ retryable: true, message: expect.stringContaining('503: upstream overloaded') });

    server.use(answer(() => HttpResponse.json({ unexpected: true })));
    await expect(engine.transcribeChunk(second, 'en')).rejects.toMatchObject({
      retryable: false,
      message: expect.stringContaining('unexpected body'),
    });

    server.use(answer(() => HttpResponse.error()));
    await expect(engine.transcribeChunk(second, 'en')).rejects.toMatchObject({
      reason: 'engine_error',
      retryable: true,
    });
  });

  it('covers the intake languages by default, or the configured list', async () => {
    expect(engine.languages).toHaveLength(39);
    const narrow = new OpenAiEngine({ baseUrl: BASE, model: 'm', languages: ['en'] });
    await expect(narrow.transcribeChunk(second, 'fr')).rejects.toBeInstanceOf(UnsupportedLanguageError);
  });
});

describe('transcribeFile with an OpenAI-compatible engine', () => {
  it("takes the API's detected language and its text", async () => {
    server.use(
      answer(() =>
        HttpResponse.json({
          text: 'Hello there, thanks for calling.',
          language: 'english',
          segments: [{ text: 'Hello there, thanks for calling.', avg_logprob: -0.1 }],
        }),
      ),
    );
    const result = await transcribeFile(await speak('Hello there, thanks for calling.', { voice: 'en' }), {
      engines: [engine],
      agentChannel: 'left',
    });
    expect(result.language).toBe('en');
    expect(result.segments).toEqual([
      expect.objectContaining({ speaker: 'speaker', channel: 0, text: 'Hello there, thanks for calling.' }),
    ]);
  });

  it('fails with unsupported_language when the API hears a language outside the list', async () => {
    server.use(answer(() => HttpResponse.json({ text: 'Habari', language: 'swahili' })));
    const err = await transcribeFile(await speak('Hello there, thanks for calling.', { voice: 'en' }), {
      engines: [engine],
      agentChannel: 'left',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsupportedLanguageError);
  });
});

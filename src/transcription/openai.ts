import got, { RequestError } from 'got';
import { z } from 'zod';
import { encodeWav } from '../audio/wav.ts';
import type { ChunkTranscript, TranscriptionEngine } from './engine.ts';
import { EngineError, UnsupportedLanguageError } from './engine.ts';

/** The intake document's language codes. */
export const INTAKE_LANGUAGES = [
  'ca',
  'es',
  'en',
  'pt',
  'gl',
  'eu',
  'fr',
  'de',
  'it',
  'nl',
  'ar',
  'zh',
  'ru',
  'ja',
  'ko',
  'pl',
  'ro',
  'tr',
  'uk',
  'sv',
  'no',
  'da',
  'fi',
  'cs',
  'el',
  'hu',
  'he',
  'hi',
  'id',
  'th',
  'vi',
  'bg',
  'hr',
  'sk',
  'sr',
  'fa',
  'ur',
  'ms',
  'ta',
] as const;

// OpenAI's own API reports Whisper's language names ("english"); most compatible servers report codes.
const WHISPER_NAMES: Record<string, string> = {
  catalan: 'ca',
  spanish: 'es',
  english: 'en',
  portuguese: 'pt',
  galician: 'gl',
  basque: 'eu',
  french: 'fr',
  german: 'de',
  italian: 'it',
  dutch: 'nl',
  arabic: 'ar',
  chinese: 'zh',
  russian: 'ru',
  japanese: 'ja',
  korean: 'ko',
  polish: 'pl',
  romanian: 'ro',
  turkish: 'tr',
  ukrainian: 'uk',
  swedish: 'sv',
  norwegian: 'no',
  nynorsk: 'no',
  danish: 'da',
  finnish: 'fi',
  czech: 'cs',
  greek: 'el',
  hungarian: 'hu',
  hebrew: 'he',
  hindi: 'hi',
  indonesian: 'id',
  thai: 'th',
  vietnamese: 'vi',
  bulgarian: 'bg',
  croatian: 'hr',
  slovak: 'sk',
  serbian: 'sr',
  persian: 'fa',
  urdu: 'ur',
  malay: 'ms',
  tamil: 'ta',
};

export interface OpenAiEngineOptions {
  /** API root including the version, e.g. `https://api.openai.com/v1` or `http://localhost:8000/v1`. */
  baseUrl: string;
  /** Sent as a Bearer token; local servers often need none. */
  apiKey?: string | undefined;
  model: string;
  languages?: readonly string[];
  timeoutMs?: number;
  /** Extra attempts on network errors, 429 and 5xx (default 2). */
  retries?: number;
}

const VerboseJson = z.object({
  text: z.string(),
  language: z.string().optional(),
  segments: z
    .array(z.object({ text: z.string(), avg_logprob: z.number().optional(), no_speech_prob: z.number().optional() }))
    .optional(),
});

/** Any OpenAI-compatible `/audio/transcriptions` endpoint (OpenAI, Groq, faster-whisper servers, vLLM). */
export class OpenAiEngine implements TranscriptionEngine {
  readonly name = 'openai';
  readonly languages: readonly string[];
  readonly detectsLanguage = true;
  private readonly opts: OpenAiEngineOptions;

  constructor(opts: OpenAiEngineOptions) {
    this.opts = opts;
    this.languages = opts.languages ?? INTAKE_LANGUAGES;
  }

  async transcribeChunk(samples: Float32Array, language: string | null): Promise<ChunkTranscript> {
    if (language && !this.languages.includes(language)) throw new UnsupportedLanguageError(language, this.languages);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(encodeWav(samples, 16000))], { type: 'audio/wav' }), 'chunk.wav');
    form.append('model', this.opts.model);
    form.append('response_format', 'verbose_json');
    form.append('temperature', '0');
    if (language) form.append('language', language);

    const url = `${this.opts.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`;
    let response: import('got').Response<string>;
    try {
      response = await got.post(url, {
        body: form,
        headers: this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {},
        timeout: { request: this.opts.timeoutMs ?? 120_000 },
        retry: { limit: this.opts.retries ?? 2, methods: ['POST'] },
        throwHttpErrors: false,
      });
    } catch (err) {
      throw new EngineError(
        `Transcription request to ${url} failed: ${err instanceof RequestError ? err.code : String(err)}`,
        true,
        { cause: err },
      );
    }
    if (response.statusCode < 200 || response.statusCode >= 300) {
      const retryable = response.statusCode === 429 || response.statusCode >= 500;
      throw new EngineError(
        `Transcription API answered ${response.statusCode}: ${apiMessage(response.body)}`,
        retryable,
      );
    }
    let body: z.infer<typeof VerboseJson>;
    try {
      body = VerboseJson.parse(JSON.parse(response.body));
    } catch (err) {
      throw new EngineError(`Transcription API answered an unexpected body: ${response.body.slice(0, 200)}`, false, {
        cause: err,
      });
    }
    return parseVerbose(body);
  }
}

function parseVerbose(body: z.infer<typeof VerboseJson>): ChunkTranscript {
  // Whisper's own rule for hallucinations on non-speech: likely silence and low confidence → drop.
  const kept = body.segments?.filter((s) => !((s.no_speech_prob ?? 0) > 0.6 && (s.avg_logprob ?? 0) < -1));
  const text = kept ? kept.map((s) => s.text.trim()).join(' ') : body.text;
  const probs = (kept ?? []).map((s) => s.avg_logprob).filter((p): p is number => p !== undefined);
  const reported = body.language?.toLowerCase();
  const language = reported ? (WHISPER_NAMES[reported] ?? reported) : undefined;
  return {
    text: text.trim(),
    avgLogProb: probs.length ? probs.reduce((a, b) => a + b, 0) / probs.length : 0,
    ...(language ? { language } : {}),
  };
}

function apiMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (message) return message;
  } catch {
    // not JSON: show the start of the raw body
  }
  return body.slice(0, 200) || '(empty body)';
}

import type { Logger } from 'pino';
import type { DecoderPaths } from '../audio/binaries.ts';
import { SAMPLE_RATE, decodeAudio } from '../audio/decode.ts';
import { detectSpeech, type VadOptions } from '../audio/vad.ts';
import type { ChunkTranscript, EngineResult, Segment, Speaker, TranscriptionEngine } from './engine.ts';
import { NoSpeechError, UnsupportedLanguageError } from './engine.ts';

export interface TranscribeOptions {
  /** Tried in order: the first engine covering the language transcribes. */
  engines: readonly TranscriptionEngine[];
  /** Known language code; null/undefined → detected among the languages the engines cover. */
  language?: string | null;
  /** Which stereo channel carries the agent (default left). */
  agentChannel?: 'left' | 'right';
  logger?: Pick<Logger, 'info' | 'debug'>;
  maxDurationSeconds?: number;
  vad?: VadOptions;
  /** ffmpeg and ffprobe to run (default: the npm packages'). */
  decoder?: DecoderPaths;
}

export interface TranscribeResult extends EngineResult {
  /** Distinct channels analysed: 2 for a real stereo call, 1 for mono or stereo with identical channels. */
  channels: number;
}

interface Chunk {
  channel: number;
  start: number;
  end: number;
  samples: Float32Array;
}

// Language detection looks at this much speech at most (the intake document promises "about one minute").
const DETECT_SECONDS = 60;
// …but stops once this much was heard and one language leads clearly; each extra second costs a full decode per candidate.
const DETECT_EARLY_SECONDS = 15;
const DETECT_CLEAR_MARGIN = 0.5;
// A chunk a model cannot transcribe at all (it emits end-of-text at once) counts as this log-prob, not −∞,
// so one odd chunk does not rule a language out.
const EMPTY_LOG_PROB = -5;

export async function transcribeFile(path: string, opts: TranscribeOptions): Promise<TranscribeResult> {
  const log = opts.logger;
  const audio = await decodeAudio(path, {
    maxChannels: 2,
    ...(opts.decoder ? { decoder: opts.decoder } : {}),
    ...(opts.maxDurationSeconds ? { maxDurationSeconds: opts.maxDurationSeconds } : {}),
  });
  const channels =
    audio.channels.length === 2 && sameSignal(audio.channels[0]!, audio.channels[1]!)
      ? [audio.channels[0]!]
      : audio.channels;

  const chunks: Chunk[] = [];
  for (const [channel, samples] of channels.entries()) {
    for (const r of await detectSpeech(samples, opts.vad)) {
      // Views, not copies: a long call is held in memory once.
      chunks.push({
        channel,
        ...r,
        samples: samples.subarray(Math.floor(r.start * SAMPLE_RATE), Math.ceil(r.end * SAMPLE_RATE)),
      });
    }
  }
  chunks.sort((a, b) => a.start - b.start || a.channel - b.channel);
  log?.debug({ chunks: chunks.length, speechSeconds: sum(chunks.map(seconds)) }, 'speech detected');
  if (!chunks.length) throw new NoSpeechError();

  const cache = new Map<Chunk, Map<string, ChunkTranscript>>();
  const run = async (engine: TranscriptionEngine, chunk: Chunk, language: string | null): Promise<ChunkTranscript> => {
    const key = language ?? '';
    const hit = cache.get(chunk)?.get(key);
    if (hit) return hit;
    // ONNX runs resolve without giving timers and I/O a turn; yielding once per chunk keeps the HTTP
    // server, heartbeats and signal handlers of the same process answering during a long call.
    await new Promise((resolve) => setImmediate(resolve));
    const result = await engine.transcribeChunk(chunk.samples, language);
    if (!cache.has(chunk)) cache.set(chunk, new Map());
    cache.get(chunk)!.set(key, result);
    // An engine that detected a language also produced the transcript in that language.
    if (language === null && result.language) cache.get(chunk)!.set(result.language, result);
    return result;
  };

  const language = opts.language
    ? checkCovered(opts.language, opts.engines)
    : await detectLanguage(chunks, opts.engines, run, log);
  log?.info({ language, requested: opts.language ?? null }, 'transcription language');
  const engine = opts.engines.find((e) => e.languages.includes(language))!;

  const segments: Segment[] = [];
  for (const chunk of chunks) {
    const { text } = await run(engine, chunk, language);
    if (text)
      segments.push({
        start: round(chunk.start),
        end: round(chunk.end),
        speaker: speakerOf(chunk.channel, channels.length, opts.agentChannel ?? 'left'),
        text,
        channel: chunk.channel,
      });
  }
  if (!segments.length) throw new NoSpeechError('Speech-like audio was found but no words were recognised');
  return { segments, language, durationSeconds: audio.durationSeconds, channels: channels.length };
}

function checkCovered(language: string, engines: readonly TranscriptionEngine[]): string {
  if (!engines.some((e) => e.languages.includes(language)))
    throw new UnsupportedLanguageError(language, coveredLanguages(engines));
  return language;
}

export function coveredLanguages(engines: readonly TranscriptionEngine[]): string[] {
  return [...new Set(engines.flatMap((e) => e.languages))];
}

type Run = (engine: TranscriptionEngine, chunk: Chunk, language: string | null) => Promise<ChunkTranscript>;

/**
 * Language detection over the first ~60 s of speech (in time order, both channels).
 * - An engine that detects languages itself (Whisper-style APIs) is asked without a language; its reports are
 *   voted by seconds of speech.
 * - Otherwise every covered language's model transcribes the same chunks and the language whose model is most
 *   confident wins: highest speech-duration-weighted mean token log-probability. A model fed another language
 *   either stops at once or emits low-probability tokens, so the right model scores clearly higher. Stops early
 *   once one language leads by a clear margin.
 */
async function detectLanguage(
  chunks: Chunk[],
  engines: readonly TranscriptionEngine[],
  run: Run,
  log: TranscribeOptions['logger'],
): Promise<string> {
  const sample: Chunk[] = [];
  for (const c of chunks) {
    if (sum(sample.map(seconds)) >= DETECT_SECONDS) break;
    sample.push(c);
  }
  const covered = coveredLanguages(engines);

  const detector = engines.find((e) => e.detectsLanguage);
  if (detector) {
    const votes = new Map<string, number>();
    for (const c of sample) {
      const { language } = await run(detector, c, null);
      if (language) votes.set(language, (votes.get(language) ?? 0) + seconds(c));
    }
    const best = [...votes].sort((a, b) => b[1] - a[1])[0]?.[0];
    if (best) return checkCovered(best, engines);
  }

  if (covered.length === 1) return covered[0]!;
  const candidates = covered.map((language) => ({
    language,
    engine: engines.find((e) => e.languages.includes(language))!,
    weighted: 0,
  }));
  let heard = 0;
  for (const c of sample) {
    for (const cand of candidates) {
      const { avgLogProb } = await run(cand.engine, c, cand.language);
      cand.weighted += Math.max(avgLogProb, EMPTY_LOG_PROB) * seconds(c);
    }
    heard += seconds(c);
    const [first, second] = [...candidates].sort((a, b) => b.weighted - a.weighted);
    if (heard >= DETECT_EARLY_SECONDS && (first!.weighted - second!.weighted) / heard > DETECT_CLEAR_MARGIN) break;
  }
  log?.debug(
    { heardSeconds: heard, scores: Object.fromEntries(candidates.map((c) => [c.language, c.weighted / heard])) },
    'language detection',
  );
  return candidates.sort((a, b) => b.weighted - a.weighted)[0]!.language;
}

function speakerOf(channel: number, channelCount: number, agentChannel: 'left' | 'right'): Speaker {
  if (channelCount === 1) return 'speaker';
  return (channel === 0) === (agentChannel === 'left') ? 'agent' : 'customer';
}

// Many "stereo" recordings carry the same mix on both sides; transcribing both would duplicate every line.
function sameSignal(a: Float32Array, b: Float32Array): boolean {
  let diff = 0;
  let energy = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    diff += d * d;
    energy += a[i]! * a[i]! + b[i]! * b[i]!;
  }
  return energy === 0 || diff / energy < 1e-3;
}

const seconds = (c: Chunk) => c.end - c.start;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const round = (s: number) => Math.round(s * 1000) / 1000;

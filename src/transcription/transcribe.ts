import type { Logger } from 'pino';
import type { DecoderPaths } from '../audio/binaries.ts';
import { type AudioStream, SAMPLE_RATE, openAudioStream } from '../audio/decode.ts';
import { Denoiser } from '../audio/denoise.ts';
import { type DiarizeOptions, Diarizer } from '../audio/diarize.ts';
import { type SpeechChunk, SpeechTracker, type VadOptions } from '../audio/vad.ts';
import { SnrMeter } from '../audio/snr.ts';
import type { ChunkTranscript, EngineResult, Segment, Speaker, TranscriptionEngine } from './engine.ts';
import { NoSpeechError, TranscriptionFailure, UnsupportedLanguageError } from './engine.ts';
import { detachBuffer } from './memory.ts';

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
  /** Words the call likely contains; engines that can bias their decoding towards them do (ChunkOptions). */
  vocabulary?: readonly string[];
  /**
   * Noise suppression (RNNoise) of the speech before recognition (ASR_DENOISE): 'auto' on each channel
   * whose estimated SNR is at most DENOISE_BELOW_DB, 'on' / 'off' always / never. Default DEFAULT_DENOISE.
   */
  denoise?: DenoiseMode;
  /**
   * Mono recordings: tell two voices apart (src/audio/diarize.ts). The voice heard first becomes the
   * agent; callers that decide otherwise swap afterwards (src/accounts/mono-speakers.ts). Default off.
   */
  diarize?: boolean | DiarizeOptions;
}

/** What separating the voices of a mono recording found. */
export interface DiarizationResult {
  /** Two voices told apart: segments are agent/customer. False: one voice (or not clearly two), segments stay 'speaker'. */
  separated: boolean;
  /** 0–1. */
  confidence: number;
}

export type DenoiseMode = 'auto' | 'on' | 'off';

/**
 * Off by default: bench:asr measured RNNoise costing words at every SNR it was tried on (clean, and
 * telephone pink noise at 10, 5 and 0 dB; docs/benchmarks/asr.md). Moonshine copes with noise better than with
 * the distortion the suppressor leaves, so the stage stays available (ASR_DENOISE) but does not run.
 */
export const DEFAULT_DENOISE: DenoiseMode = 'off';
/** 'auto' suppresses noise on a channel whose estimated SNR is this low or lower (true SNR ≈ 5–7 dB, see snr.ts). */
export const DENOISE_BELOW_DB = 12;
/** The choice is made after this much audio (or at the end of a shorter call); chunks wait until then. */
const DENOISE_DECIDE_SECONDS = 10;

// Language detection looks at this much speech at most (the intake document promises "about one minute").
const DETECT_SECONDS = 60;
// …but stops once this much was heard and one language leads clearly; each extra second costs a full decode per candidate.
const DETECT_EARLY_SECONDS = 15;
const DETECT_CLEAR_MARGIN = 0.5;
// A chunk a model cannot transcribe at all (it emits end-of-text at once) counts as this log-prob, not −∞,
// so one odd chunk does not rule a language out.
const EMPTY_LOG_PROB = -5;
// Whether both stereo channels carry the same mix is decided on this much audio with sound.
const TWIN_SECONDS = 60;

export interface TranscribeResult extends EngineResult {
  /** Distinct channels analysed: 2 for a real stereo call, 1 for mono or stereo with identical channels. */
  channels: number;
  /** Estimated signal-to-noise ratio in dB over the whole call (the noisier channel of stereo); null: too little speech. */
  snrDb: number | null;
  /** Whether noise suppression ran on (some channel of) the call. */
  denoised: boolean;
  /** Present when a mono recording went through speaker separation. */
  diarization?: DiarizationResult;
}

interface Chunk {
  channel: number;
  start: number;
  end: number;
  samples: Float32Array;
  /** Index of the diarizer's piece (mono recordings being separated). */
  piece?: number;
  /** SpeechChunk.aboveBabble: the engine may be asked for its best guess where it hears no words. */
  aboveBabble?: boolean;
}

/**
 * Decodes, detects speech and recognises in a stream of bounded blocks: memory does not depend on the
 * call's length (the decoder waits on its pipe while chunks are recognised). Stereo runs one voice
 * tracker per channel. Chunks wait only while the language is being detected (≤ ~60 s of speech) and,
 * on stereo, while it is not yet known whether both channels carry the same signal (the first minute).
 */
export async function transcribeFile(path: string, opts: TranscribeOptions): Promise<TranscribeResult> {
  const stream = await openAudioStream(path, {
    maxChannels: 2,
    ...(opts.decoder ? { decoder: opts.decoder } : {}),
    ...(opts.maxDurationSeconds ? { maxDurationSeconds: opts.maxDurationSeconds } : {}),
  });
  const decoded = { frames: 0, complete: false };
  try {
    return await transcribeStream(stream, opts, decoded);
  } catch (error) {
    // A verdict on the recording (no speech, an uncovered language…) still says how long it is: the
    // decoded length when the whole file was read, else what ffprobe reported.
    if (error instanceof TranscriptionFailure && error.durationSeconds === undefined) {
      const seconds = decoded.complete ? decoded.frames / SAMPLE_RATE : stream.info.durationSeconds;
      if (seconds > 0) error.durationSeconds = seconds;
    }
    throw error;
  }
}

async function transcribeStream(
  stream: AudioStream,
  opts: TranscribeOptions,
  decoded: { frames: number; complete: boolean },
): Promise<TranscribeResult> {
  const log = opts.logger;
  const channelCount = stream.info.channels;
  const meters = Array.from({ length: channelCount }, () => new SnrMeter());
  // One speaker per channel: background talkers are told from the speaker by level (src/audio/babble.ts).
  // Not on mono, where two voices fill the channel and its floor would be speech: bench:asr's babble files
  // (one reader, little pause) lost 1–4 points of WER with it.
  const vad = { babbleGate: channelCount === 2, ...opts.vad };
  const trackers = meters.map((meter) => new SpeechTracker(vad, meter));
  const denoise = new DenoiseGate(opts.denoise ?? DEFAULT_DENOISE, meters, log);
  // Only a recording that is mono from the start is separated: a stereo file is one speaker per channel.
  const diarizer = channelCount === 1 && opts.diarize ? new Diarizer(opts.diarize === true ? {} : opts.diarize) : null;
  let pieces = 0;
  // Voice regions of a mono call are cut where the voice changes, so each transcript segment has one speaker.
  const cut = (chunks: SpeechChunk[], channel: number): Chunk[] =>
    diarizer
      ? chunks.flatMap((c) =>
          diarizer.split(c).map((p) => ({
            channel,
            start: p.start,
            end: p.end,
            samples: c.samples.subarray(
              Math.max(0, Math.floor((p.start - c.start) * SAMPLE_RATE)),
              Math.ceil((p.end - c.start) * SAMPLE_RATE),
            ),
            piece: pieces++,
          })),
        )
      : chunks.map((c) => ({ ...c, channel }));
  const twin = channelCount === 2 ? new TwinCheck() : null;
  let heldRight: Chunk[] = []; // right-channel chunks while `twin` is undecided

  let language: string | null = opts.language ? checkCovered(opts.language, opts.engines) : null;
  let engine = language ? opts.engines.find((e) => e.languages.includes(language!))! : null;
  let undetected: Chunk[] = []; // chunks heard before the language is known
  const cache = new Map<Chunk, Map<string, ChunkTranscript>>();
  const chunkOptions = opts.vocabulary?.length ? { vocabulary: opts.vocabulary } : undefined;
  const run: Run = async (e, chunk, lang) => {
    const key = lang ?? '';
    const hit = cache.get(chunk)?.get(key);
    if (hit) return hit;
    // ONNX runs resolve without giving timers and I/O a turn; yielding once per chunk keeps the HTTP
    // server, heartbeats and signal handlers of the same process answering during a long call.
    await new Promise((resolve) => setImmediate(resolve));
    const options = chunk.aboveBabble ? { ...chunkOptions, speech: true } : chunkOptions;
    const result = await e.transcribeChunk(chunk.samples, lang, options);
    if (!cache.has(chunk)) cache.set(chunk, new Map());
    cache.get(chunk)!.set(key, result);
    // An engine that detected a language also produced the transcript in that language.
    if (lang === null && result.language) cache.get(chunk)!.set(result.language, result);
    return result;
  };

  const lines: { chunk: Omit<Chunk, 'samples'>; heard: ChunkTranscript }[] = [];
  let chunkCount = 0;
  let speechSeconds = 0;
  // Chunks being recognised. An engine that recognises several at once (threads) gets that many, and
  // the audio goes on being decoded meanwhile; more would only hold samples in memory. Lines are
  // put in time order at the end, so the order chunks finish in does not matter.
  const inFlight = new Set<Promise<void>>();
  const recognise = async (chunks: Chunk[]) => {
    for (const chunk of chunks) {
      const line = run(engine!, chunk, language).then((heard) => {
        cache.delete(chunk);
        // The chunk's samples (the voice tracker's copy, or a piece of it) are done with: freed now. This
        // thread allocates little on its heap, so dead sample arrays waited for a rare full collection
        // and piled up (30–40 MB on bench:asr's 5-minute call). A view into a larger buffer is left alone.
        detachBuffer(chunk.samples);
        // A turn of the speaker's own speech the engine heard no words in is kept as such (guessed).
        if (heard.text || heard.guessed)
          lines.push({
            chunk: {
              channel: chunk.channel,
              start: chunk.start,
              end: chunk.end,
              ...(chunk.piece !== undefined ? { piece: chunk.piece } : {}),
            },
            heard,
          });
      });
      inFlight.add(line);
      // A failed line stays in the set, so the next wait below (or the one at the end) throws its error.
      line.then(
        () => inFlight.delete(line),
        () => {},
      );
      while (inFlight.size >= (engine!.parallelism ?? 1)) await Promise.race(inFlight);
    }
  };
  const heard = async (chunks: Chunk[], ended: boolean) => {
    chunkCount += chunks.length;
    speechSeconds += sum(chunks.map(seconds));
    if (language) return recognise(chunks);
    undetected.push(...chunks);
    if (!undetected.length || (!ended && sum(undetected.map(seconds)) < DETECT_SECONDS)) return;
    undetected.sort(byTime);
    language = await detectLanguage(undetected, opts.engines, run, log);
    log?.info({ language, requested: null }, 'transcription language');
    engine = opts.engines.find((e) => e.languages.includes(language!))!;
    const waiting = undetected;
    undetected = [];
    await recognise(waiting);
  };
  if (language) log?.info({ language, requested: language }, 'transcription language');

  let frames = 0;
  try {
    for await (const block of stream.blocks) {
      frames += block[0]!.length;
      decoded.frames = frames;
      const ready: Chunk[] = [];
      for (const [channel, tracker] of trackers.entries()) {
        if (channel === 1 && twin?.same) continue;
        const tracked = cut(await tracker.push(block[channel]!), channel);
        const chunks = await denoise.pass(
          channel,
          tracked,
          frames / SAMPLE_RATE >= DENOISE_DECIDE_SECONDS ? 'enough' : 'early',
        );
        if (channel === 1 && twin?.same === undefined) heldRight.push(...chunks);
        else ready.push(...chunks);
      }
      if (twin && twin.same === undefined && twin.add(block[0]!, block[1]!) === false) {
        ready.push(...heldRight);
        heldRight = [];
      }
      if (twin?.same) heldRight = [];
      await heard(ready.sort(byTime), false);
      // The block was copied into the voice trackers: freed now, as the chunks' samples are (above).
      for (const channel of block) detachBuffer(channel);
    }
    const rest: Chunk[] = [];
    for (const [channel, tracker] of trackers.entries()) {
      if (channel === 1 && twin?.decide()) continue;
      rest.push(...(await denoise.pass(channel, cut(await tracker.end(), channel), 'all')));
    }
    decoded.complete = true;
    if (twin?.same === false) rest.push(...heldRight);
    await heard(rest.sort(byTime), true);
    await Promise.all(inFlight);
  } finally {
    denoise.close();
  }
  const estimates = meters
    .filter((_, channel) => !(channel === 1 && twin?.same))
    .map((m) => m.estimate())
    .filter((e) => e !== null);
  const snrDb = estimates.length ? Math.min(...estimates) : null;

  log?.debug({ chunks: chunkCount, speechSeconds }, 'speech detected');
  if (!chunkCount) throw new NoSpeechError();
  const channels = twin?.same ? 1 : channelCount;
  const voices = diarizer?.finish();
  if (voices) log?.info({ separated: voices.separated, confidence: voices.confidence }, 'mono speakers');
  const speaker = (chunk: Omit<Chunk, 'samples'>): Speaker =>
    voices?.separated && chunk.piece !== undefined
      ? voices.labels[chunk.piece] === 0
        ? 'agent'
        : 'customer'
      : speakerOf(chunk.channel, channels, opts.agentChannel ?? 'left');
  const segments: Segment[] = withoutSeamRepeats(lines.sort((a, b) => byTime(a.chunk, b.chunk))).map(
    ({ chunk, heard }) => ({
      start: round(chunk.start),
      end: round(chunk.end),
      speaker: speaker(chunk),
      text: heard.text,
      channel: chunk.channel,
      ...(heard.confidence !== undefined ? { confidence: heard.confidence } : {}),
      ...(heard.uncertainWords ? { uncertainWords: heard.uncertainWords } : {}),
      ...(heard.guessed ? { guessed: true } : {}),
    }),
  );
  if (!segments.some((s) => s.text))
    throw new NoSpeechError('Speech-like audio was found but no words were recognised');
  return {
    segments,
    language: language!,
    durationSeconds: frames / SAMPLE_RATE,
    channels,
    snrDb,
    denoised: denoise.used,
    ...(voices ? { diarization: { separated: voices.separated, confidence: voices.confidence } } : {}),
  };
}

/**
 * Per channel, whether speech chunks go through RNNoise before recognition. In 'auto' the choice waits for
 * the first DENOISE_DECIDE_SECONDS of audio with some speech (the SNR estimate needs both speech and
 * pauses), holding that channel's chunks meanwhile, and then holds for the rest of the call.
 */
class DenoiseGate {
  private readonly denoisers: (Denoiser | null | undefined)[];
  private readonly held: Chunk[][];
  used = false;

  private readonly mode: DenoiseMode;
  private readonly meters: SnrMeter[];
  private readonly log: TranscribeOptions['logger'];
  constructor(mode: DenoiseMode, meters: SnrMeter[], log: TranscribeOptions['logger']) {
    this.mode = mode;
    this.meters = meters;
    this.log = log;
    this.denoisers = meters.map(() => (mode === 'off' ? null : undefined));
    this.held = meters.map(() => []);
  }

  /**
   * The chunks ready for recognition (denoised or not). `heard`: 'early' before DENOISE_DECIDE_SECONDS,
   * 'enough' after, 'all' at the end of the recording.
   */
  async pass(channel: number, chunks: Chunk[], heard: 'early' | 'enough' | 'all'): Promise<Chunk[]> {
    if (this.denoisers[channel] === undefined) {
      const estimate = this.meters[channel]!.estimate();
      if (heard === 'early' || (heard === 'enough' && estimate === null)) {
        this.held[channel]!.push(...chunks);
        return [];
      }
      const on = this.mode === 'on' || (estimate !== null && estimate <= DENOISE_BELOW_DB);
      this.log?.debug({ channel, snrDb: estimate, denoise: on }, 'noise suppression chosen');
      this.denoisers[channel] = on ? await Denoiser.create() : null;
      this.used ||= on;
    }
    const all = [...this.held[channel]!.splice(0), ...chunks];
    const denoiser = this.denoisers[channel];
    if (!denoiser) return all;
    return all.map((c) => ({ ...c, samples: denoiser.process(c.samples) }));
  }

  close(): void {
    for (const d of this.denoisers) d?.close();
  }
}

/**
 * Many "stereo" recordings carry the same mix on both sides; transcribing both would duplicate every line.
 * Decided on the first minute that has any sound (or the whole call if shorter); `same` stays undefined until then.
 */
class TwinCheck {
  same: boolean | undefined;
  private diff = 0;
  private energy = 0;
  private frames = 0;

  /** Adds a block of both channels; returns the verdict once there is one. */
  add(a: Float32Array, b: Float32Array): boolean | undefined {
    for (let i = 0; i < a.length; i++) {
      const d = a[i]! - b[i]!;
      this.diff += d * d;
      this.energy += a[i]! * a[i]! + b[i]! * b[i]!;
    }
    this.frames += a.length;
    if (this.energy > 0 && this.frames >= TWIN_SECONDS * SAMPLE_RATE) this.decide();
    return this.same;
  }

  /** The verdict with what was heard (at the end of a short call). */
  decide(): boolean {
    this.same ??= this.energy === 0 || this.diff / this.energy < 1e-3;
    return this.same;
  }
}

const byTime = (a: Omit<Chunk, 'samples'>, b: Omit<Chunk, 'samples'>) => a.start - b.start || a.channel - b.channel;

/** Longest run of words looked for where two windows meet. */
const SEAM_WORDS = 3;

/**
 * Where a region of speech was cut into windows (at a voice change, or past the longest window), both
 * sides may hear the words at the cut: a word heard by the window before it and again by the one after
 * ("consider | consider") is kept once. The ends of the two texts are aligned word by word (the longest
 * run, up to SEAM_WORDS, that ends the first and starts the second) and the second loses it.
 */
export function withoutSeamRepeats<L extends { chunk: Omit<Chunk, 'samples'>; heard: ChunkTranscript }>(
  lines: L[],
): L[] {
  const out: L[] = [];
  for (const line of lines) {
    const before = out.findLast((l) => l.chunk.channel === line.chunk.channel);
    // Only windows cut from one region touch (regions are apart by at least a pause).
    const touching = before && Math.abs(before.chunk.end - line.chunk.start) < 1e-6;
    const repeated = touching ? seamRepeat(before.heard.text, line.heard.text) : 0;
    if (!repeated) {
      out.push(line);
      continue;
    }
    const words = line.heard.text.split(' ');
    const text = words.slice(repeated).join(' ');
    if (!text) continue;
    const uncertain = line.heard.uncertainWords?.map((i) => i - repeated).filter((i) => i >= 0);
    const { uncertainWords: _, ...heard } = line.heard;
    out.push({ ...line, heard: { ...heard, text, ...(uncertain?.length ? { uncertainWords: uncertain } : {}) } });
  }
  return out;
}

/** How many words at the start of `after` repeat the end of `before` (0: none). */
function seamRepeat(before: string, after: string): number {
  const key = (w: string) => w.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  const a = before.split(' ').map(key).filter(Boolean);
  const b = after.split(' ').map(key);
  for (let n = Math.min(SEAM_WORDS, a.length, b.length); n > 0; n--)
    if (a.slice(-n).every((w, i) => w === b[i])) return n;
  return 0;
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
    // Each language's model hears the chunk at the same time (on engines with threads).
    await Promise.all(
      candidates.map(async (cand) => {
        const { avgLogProb } = await run(cand.engine, c, cand.language);
        cand.weighted += Math.max(avgLogProb, EMPTY_LOG_PROB) * seconds(c);
      }),
    );
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

const seconds = (c: Chunk) => c.end - c.start;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const round = (s: number) => Math.round(s * 1000) / 1000;

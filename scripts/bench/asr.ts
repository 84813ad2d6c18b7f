// `npm run bench:asr [-- --json] [-- --long] [-- --full]`
//
// How well and how fast the recogniser hears calls as they really sound. Each condition is one file that
// goes through transcribeFile (ffmpeg decode, VAD, Moonshine), so it measures what a call gets:
//   - speech: real recorded English (LibriVox readings and CMU command recordings from Debian's
//     pocketsphinx-testdata, fetched with `apt-get download` when not installed) and synthetic English and
//     Spanish call lines from three espeak-ng voices each; short 1–4-word answers in both languages;
//   - conditions: clean 16 kHz; telephone chain (300–3400 Hz, 8 kHz, μ-law) and a GSM 06.10 codec through
//     ffmpeg; pink, babble (six voices) and street-like noise added before the telephone chain at
//     10/5/0 dB SNR (babble and street at 10 dB; every noise at 20/10/5/0 with --full), each utterance with another of three
//     noise stretches so a figure is pooled over several;
//   - WER (words normalised: case, accents, punctuation, numbers as words) and the real-time factor;
//   - phrase recall at 10 dB: the share of the example templates' phrases said in the call lines that the
//     analysis' phrase matcher finds in the transcript;
//   - dense speech (utterances back to back) for 1 minute in a fresh process with the en and es models
//     loaded: RTF, CPU seconds per audio second, peak RSS, WER against the utterances' texts and whether
//     the words are those of the decoder before issue 30 (run beside it); --long adds 5, 20 and 60
//     minutes, --minutes picks lengths; --dense runs only these;
//   - noise suppression: on clean, telephone and telephone pink 10/5/0 dB, `current` is run with the denoiser
//     off and on on the same files, the per-call choice (ASR_DENOISE=auto) is the one of the two its SNR
//     estimate picks, and the estimate is printed beside the true SNR. `current` elsewhere uses the default.
// Every figure is printed for today's greedy decoder (baseline) and the current default, measured in this run.
import { spawn } from 'node:child_process';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { enCustomerSupport, esAtencionCliente, findPhrases } from '../../src/analysis/index.ts';
import { encodeWav } from '../../src/audio/wav.ts';
import type { Segment } from '../../src/transcription/engine.ts';
import { resolveModelsDir, transcribeFile } from '../../src/transcription/index.ts';
import { DEFAULT_DENOISE, DENOISE_BELOW_DB } from '../../src/transcription/transcribe.ts';
import { MoonshineEngine, type MoonshineOptions } from '../../src/transcription/moonshine.ts';
import { MoonshineThreads, defaultRecognitionThreads } from '../../src/transcription/moonshine-threads.ts';
import {
  RATE,
  limitPeak,
  mixNoise,
  noiseStretches,
  speechSets,
  throughChain,
  type Chain,
  type NoiseKind,
  type SpeechSet,
} from './asr-speech.ts';
import { templatePhrases } from '../../src/accounts/vocabulary.ts';
import { levenshtein } from '../../src/domain/text.ts';
import { DEFAULT_BATCH, DEFAULT_BEAM, DEFAULT_BIAS_BOOST } from '../../src/transcription/beam.ts';
import { benchWorkspace, note, round, table } from './lib.ts';
import { NODE_MEMORY_FLAGS, missingAllocatorEnv } from '../../src/service/allocator.ts';

const { values: args } = parseArgs({
  strict: false,
  options: {
    json: { type: 'boolean', default: false },
    long: { type: 'boolean', default: false },
    dense: { type: 'boolean', default: false },
    minutes: { type: 'string' },
    full: { type: 'boolean', default: false },
    only: { type: 'string' },
    'time-limit': { type: 'string', default: '3600' },
    beam: { type: 'string', default: String(DEFAULT_BEAM) },
    'bias-boost': { type: 'string' },
    batch: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(
    "usage: npm run bench:asr -- [--json] [--long (5, 20 and 60 min dense speech)] [--dense (only the dense-speech runs)] [--full (every noise at every SNR)] [--minutes 1,5 (dense-speech lengths)] [--only TEXT (conditions whose name has TEXT)] [--time-limit 3600 (s; later conditions are skipped)] [--beam 1 (current decoder's width)] [--bias-boost 2 (0: no vocabulary)] [--batch 8 (chunks decoded together by current; 0: unbatched threads)]",
  );
  process.exit(0);
}

const GOALS = { joined: 1, tel10: 4, tel5: 15, short: 5, recall: 98, rtf: 0.03, rssOver5Min: 50 };
const GAP_SECONDS = 1;
// The determinism table: runs per thread count, and the thread counts (ASR_THREADS) compared.
const DETERMINISM_RUNS = 3;
const DETERMINISM_THREADS = [1, 2];
const modelsDir = resolveModelsDir();

// ---------------------------------------------------------------------------------------------
// Decoders compared
// ---------------------------------------------------------------------------------------------

interface Decoder {
  name: string;
  /** With `threads`: the worker's engine, a pool of recognition threads (MoonshineThreads). */
  options: Omit<MoonshineOptions, 'modelsDir'> & { threads?: number; encoderThread?: boolean; groupsInFlight?: number };
}
// baseline: the decoder as it was before issues 12 and 18 (ONNX Runtime's defaults: every core per
// session; the ONNX graphs as shipped; greedy; no vocabulary).
// current: the worker's defaults with WORKER_CONCURRENCY=2 (cores shared out, sequential execution),
// the beam of --beam, and biased towards the example template's phrases, as a worker biases each
// call towards its account's templates (src/accounts/vocabulary.ts).
const BIAS_BOOST = args['bias-boost'] === undefined ? DEFAULT_BIAS_BOOST : Number(args['bias-boost']);
/** Chunks decoded together (ASR_BATCH) by `current`; 0 = today's unbatched threads. */
const BATCH = args.batch === undefined ? DEFAULT_BATCH : Number(args.batch);
const DECODERS: Decoder[] = [
  {
    name: 'baseline',
    options: { intraOpThreads: os.availableParallelism(), beam: 1, biasBoost: 0, asShipped: true },
  },
  {
    name: 'current',
    options: {
      ...(BATCH > 1 ? { threads: 1, batch: BATCH } : { threads: defaultRecognitionThreads(), batch: 0 }),
      beam: Number(args.beam),
      biasBoost: BIAS_BOOST,
    },
  },
];
/**
 * Dense speech compares the worker's decoder with the one before issue 30 (the same beam, vocabulary and
 * threads; the first decoder step in a model of its own, a second copy of the decoder's weights per
 * thread), each in a fresh process with both languages' models loaded, as a worker that has heard calls
 * in both holds them.
 */
const UNBATCHED = { ...DECODERS[1]!.options, threads: defaultRecognitionThreads(), batch: 0 };
const DENSE_DECODERS: Decoder[] = [
  { name: 'before', options: { ...UNBATCHED, firstStepModel: true } },
  ...(BATCH > 1 ? [{ name: 'unbatched', options: UNBATCHED }] : []),
  // The batched decoder with the encoder on the recognition thread (before the encoder thread).
  ...(BATCH > 1
    ? [{ name: 'batched, encoder inline', options: { ...DECODERS[1]!.options, encoderThread: false } }]
    : []),
  // The batched decoder's scheduling before full groups: one batch of chunks in flight, new chunks
  // starting once half the slots' worth wait (MoonshineThreads' GROUPS_IN_FLIGHT, StepBatcher's START_SHARE).
  ...(BATCH > 1
    ? [
        {
          name: 'batched, one batch in flight (before full groups)',
          options: { ...DECODERS[1]!.options, groupsInFlight: 1, startShare: 0.5 },
        },
      ]
    : []),
  { name: 'current', options: DECODERS[1]!.options },
];
const DENSE_LOAD = ['en', 'es'];
/** Peak RSS of one worker with both languages loaded (issue 30). */
const RSS_GOAL_MIB = 700;
/** What `current` is biased towards: the phrases of the example template of the call's language. */
const VOCABULARY = {
  en: templatePhrases(enCustomerSupport.definition),
  es: templatePhrases(esAtencionCliente.definition),
};

// ---------------------------------------------------------------------------------------------
// Conditions
// ---------------------------------------------------------------------------------------------

interface Condition {
  name: string;
  chain: Chain;
  noise?: NoiseKind;
  snr?: number;
  /**
   * The real read utterances back to back, no gap (one reader reading on: one long voice region), with
   * mono speaker separation on as a worker runs it by default: where windows are cut inside speech.
   */
  joined?: boolean;
}

// In order of importance: a run cut short by --time-limit still has the figures with goals.
function conditions(full: boolean): Condition[] {
  const noisy = (noise: NoiseKind, snr: number): Condition => ({
    name: `telephone ${noise} ${snr} dB`,
    chain: 'telephone',
    noise,
    snr,
  });
  const list: Condition[] = [
    { name: 'clean 16 kHz', chain: 'none' },
    { name: 'clean 16 kHz, joined', chain: 'none', joined: true },
    noisy('pink', 10),
    noisy('pink', 5),
    { name: 'telephone μ-law', chain: 'telephone' },
    noisy('babble', 10),
    noisy('street', 10),
    { name: 'GSM 06.10', chain: 'gsm' },
    noisy('pink', 0),
  ];
  if (full)
    for (const noise of ['pink', 'babble', 'street'] as const)
      for (const snr of [20, 10, 5, 0])
        if (!list.some((c) => c.name === noisy(noise, snr).name)) list.push(noisy(noise, snr));
  return list;
}
// The baseline decodes the same way (greedy): it is run where a difference would show, to keep the bench short.
const BASELINE_CONDITIONS = new Set(['clean 16 kHz', 'clean 16 kHz, joined', 'telephone pink 10 dB']);
// Noise suppression is compared (off / on on the same files) where the issue asks: clean, and telephone at 10/5/0 dB.
const DENOISE_CONDITIONS = new Set([
  'clean 16 kHz',
  'telephone μ-law',
  'telephone pink 10 dB',
  'telephone pink 5 dB',
  'telephone pink 0 dB',
]);
// The joined condition and the determinism runs use the real read speech (issue 27).
const JOINED_SET = 'en read (real)';
// Short answers: the conditions the issue names for them.
const SHORT_CONDITIONS = new Set(['clean 16 kHz', 'telephone μ-law', 'telephone pink 10 dB']);

/** Utterances back to back with gaps; noise over the whole file, scaled to the SNR of the speech. */
async function buildFile(set: SpeechSet, cond: Condition, dir: string, index: number): Promise<string> {
  const gap = cond.joined ? 0 : GAP_SECONDS * RATE;
  const total = set.utterances.reduce((n, u) => n + u.samples.length + gap, gap);
  const signal = new Float32Array(total);
  const spans: [number, number][] = [];
  let at = gap;
  for (const u of set.utterances) {
    signal.set(u.samples, at);
    spans.push([at, at + u.samples.length]);
    at += u.samples.length + gap;
  }
  if (cond.noise && cond.snr !== undefined) mixNoise(signal, spans, await noiseStretches(cond.noise), cond.snr);
  limitPeak([signal]);
  return throughChain([signal], path.join(dir, String(index)), cond.chain);
}

// ---------------------------------------------------------------------------------------------
// Scoring
// ---------------------------------------------------------------------------------------------

const NUMBERS: Record<'en' | 'es', string[]> = {
  en: 'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty'.split(
    ' ',
  ),
  es: 'cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciséis diecisiete dieciocho diecinueve veinte'.split(
    ' ',
  ),
};
const SAME: Record<string, string> = { mr: 'mister', ok: 'okay', meters: 'meters', metres: 'meters' };

/** Lowercase words without accents or punctuation; small numbers as words; "that's" → "that is". */
export function normWords(text: string, language: 'en' | 'es'): string[] {
  // Contractions count as their long form (as common WER normalisers do): "I'm" is "I am".
  const expanded = text
    .replace(/\b(\w+)'s\b/g, '$1 is')
    .replace(/\b(\w+)n't\b/g, '$1 not')
    .replace(/\b(\w+)'m\b/g, '$1 am')
    .replace(/\b(\w+)'re\b/g, '$1 are')
    .replace(/\b(\w+)'ll\b/g, '$1 will')
    .replace(/\b(\w+)'ve\b/g, '$1 have');
  return expanded
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => (/^\d+$/.test(w) && Number(w) <= 20 ? NUMBERS[language][Number(w)]! : (SAME[w] ?? w)));
}

const TEMPLATE_PHRASES = {
  en: phrasesOf(enCustomerSupport.definition),
  es: phrasesOf(esAtencionCliente.definition),
};
function phrasesOf(def: unknown): string[] {
  const out = new Set<string>();
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (k === 'phrases' && Array.isArray(x)) {
          for (const p of x) if (typeof p === 'string') out.add(p);
        } else walk(x);
      }
  };
  walk(def);
  return [...out];
}

/** Template phrases said in the reference lines, and how many of them the transcript has. */
function phraseRecall(set: SpeechSet, segments: Segment[]): { said: number; found: number } {
  const phrases = TEMPLATE_PHRASES[set.language];
  const ref = set.utterances.map((u, i) => ({
    start: i,
    end: i + 1,
    speaker: 'speaker' as const,
    text: u.text,
    channel: 0,
  }));
  const said = new Set(findPhrases(ref, phrases).map((m) => m.phrase));
  const found = new Set(findPhrases(segments, [...said]).map((m) => m.phrase));
  return { said: said.size, found: found.size };
}

// ---------------------------------------------------------------------------------------------
// Run
// ---------------------------------------------------------------------------------------------

interface Measure {
  set: string;
  kind: SpeechSet['kind'];
  language: string;
  condition: string;
  decoder: string;
  refWords: number;
  errors: number;
  audioSeconds: number;
  wallSeconds: number;
  phrasesSaid: number;
  phrasesFound: number;
  /** The call's SNR estimate (transcribeFile) and the SNR the noise was mixed at (null: none added). */
  snrEstimate: number | null;
  snrTrue: number | null;
}

const started = performance.now();
const skipped: string[] = [];
const loadAtStart = os.loadavg().map((x) => round(x, 2));
const ws = benchWorkspace('escucha-bench-asr-');
try {
  const { sets, real } = await speechSets();
  if (!real) note('bench:asr: pocketsphinx-testdata could not be obtained; real recorded speech is missing');
  const only = typeof args.only === 'string' ? args.only : '';
  const conds = args.dense ? [] : conditions(!!args.full).filter((c) => c.name.includes(only));
  const engines = DECODERS.map((d) => ({
    ...d,
    engine: d.options.threads
      ? new MoonshineThreads({ modelsDir, ...d.options })
      : new MoonshineEngine({ modelsDir, ...d.options }),
  }));
  // Models load once per decoder (on each of its threads) before anything is timed.
  for (const d of engines)
    for (const lang of ['en', 'es'])
      await Promise.all(
        Array.from({ length: d.options.threads ?? 1 }, () => d.engine.transcribeChunk(new Float32Array(RATE), lang)),
      );

  const measures: Measure[] = [];
  const deadline = started + Number(args['time-limit']) * 1000;
  let index = 0;
  let dense: DenseRun[] = [];
  for (const [i, cond] of conds.entries()) {
    // Dense speech right after the two conditions the baseline runs on; the rest as time allows.
    if (i === 2 && !only) dense = await denseRuns(sets, !!args.long);
    if (performance.now() > deadline) {
      note(
        `bench:asr: --time-limit reached; skipped ${conds
          .slice(i)
          .map((c) => c.name)
          .join(', ')}`,
      );
      skipped.push(...conds.slice(i).map((c) => c.name));
      break;
    }
    for (const set of sets) {
      if (set.kind === 'short' && !SHORT_CONDITIONS.has(cond.name)) continue;
      if (cond.joined && set.name !== JOINED_SET) continue;
      const file = await buildFile(set, cond, ws.work, index++);
      const ref = set.utterances.flatMap((u) => normWords(u.text, set.language));
      for (const d of engines) {
        if (d.name === 'baseline' && !BASELINE_CONDITIONS.has(cond.name)) continue;
        const vocabulary = d.name === 'current' && BIAS_BOOST > 0 ? VOCABULARY[set.language] : undefined;
        // `current` with the denoiser off and on where it is compared; the per-call choice is derived below.
        const modes =
          d.name === 'current'
            ? DENOISE_CONDITIONS.has(cond.name)
              ? (['off', 'on'] as const)
              : [DEFAULT_DENOISE]
            : (['off'] as const);
        const runs: Measure[] = [];
        for (const denoise of modes) {
          const t0 = performance.now();
          const result = await transcribeFile(file, {
            engines: [d.engine],
            language: set.language,
            denoise,
            ...(vocabulary ? { vocabulary } : {}),
            ...(cond.joined ? { diarize: true } : {}),
          }).catch(() => null);
          const wall = (performance.now() - t0) / 1000;
          const segments = result?.segments ?? [];
          const hyp = segments.flatMap((s) => normWords(s.text, set.language));
          if (process.env.BENCH_ASR_SHOW)
            console.error(`[${d.name} denoise ${denoise}] ${set.name}: ${segments.map((s) => s.text).join(' | ')}`);
          const recall = set.kind === 'long' ? phraseRecall(set, segments) : { said: 0, found: 0 };
          runs.push({
            set: set.name,
            kind: set.kind,
            language: set.language,
            condition: cond.name,
            decoder: modes.length > 1 ? `denoise ${denoise}` : d.name,
            refWords: ref.length,
            errors: levenshtein(ref, hyp),
            audioSeconds: result?.durationSeconds ?? 0,
            wallSeconds: wall,
            phrasesSaid: recall.said,
            phrasesFound: recall.found,
            snrEstimate: result?.snrDb ?? null,
            snrTrue: cond.snr ?? null,
          });
        }
        measures.push(...runs);
        if (runs.length > 1) {
          // ASR_DENOISE=auto: the run its own estimate (the same in both) chooses; `current` is the default.
          const estimate = runs[0]!.snrEstimate;
          const auto = estimate !== null && estimate <= DENOISE_BELOW_DB ? runs[1]! : runs[0]!;
          const byMode = { off: runs[0]!, on: runs[1]!, auto };
          measures.push({ ...auto, decoder: 'denoise auto' }, { ...byMode[DEFAULT_DENOISE], decoder: 'current' });
        }
      }
      note(`bench:asr: ${cond.name} / ${set.name} done`);
    }
  }

  if ((conds.length <= 2 && !only) || args.dense) dense = await denseRuns(sets, !!args.long);
  const same = conds.some((c) => c.joined) ? await determinism(sets, ws.work) : [];
  report(measures, dense, conds, same);
  for (const d of engines) if (d.engine instanceof MoonshineThreads) await d.engine.close();
} finally {
  await ws.cleanup();
}

// ---------------------------------------------------------------------------------------------
// Determinism: the same file three times, on one recognition thread and on two
// ---------------------------------------------------------------------------------------------

interface SameRun {
  condition: string;
  wer: number;
  /** Per thread count: whether the three runs gave the same words (and segment times). */
  same: Record<number, boolean>;
  /** One thread and two gave the same words. */
  across: boolean;
}

/**
 * The joined read speech clean, through the telephone line and with pink noise at 5 dB (the files issue
 * 27 saw change between runs), each transcribed DETERMINISM_RUNS times as a worker does (vocabulary,
 * speakers separated) with ASR_THREADS 1 and 2.
 */
async function determinism(sets: SpeechSet[], dir: string): Promise<SameRun[]> {
  const set = sets.find((s) => s.name === JOINED_SET);
  if (!set) return [];
  const ref = set.utterances.flatMap((u) => normWords(u.text, 'en'));
  const current = DECODERS.find((d) => d.name === 'current')!.options;
  const files: [Condition, string][] = [];
  for (const cond of [
    { name: 'clean 16 kHz, joined', chain: 'none' },
    { name: 'telephone μ-law, joined', chain: 'telephone' },
    { name: 'telephone pink 5 dB, joined', chain: 'telephone', noise: 'pink', snr: 5 },
  ] satisfies Condition[])
    files.push([cond, await buildFile(set, { ...cond, joined: true }, dir, files.length + 10_000)]);
  const heard = new Map<string, string[][]>();
  for (const threads of DETERMINISM_THREADS) {
    const engine = new MoonshineThreads({ modelsDir, ...current, threads });
    try {
      for (const [cond, file] of files)
        for (let r = 0; r < DETERMINISM_RUNS; r++) {
          const result = await transcribeFile(file, {
            engines: [engine],
            language: 'en',
            vocabulary: VOCABULARY.en,
            diarize: true,
          });
          const key = `${cond.name}/${threads}`;
          heard.set(key, [...(heard.get(key) ?? []), result.segments.map((s) => `${s.start}-${s.end} ${s.text}`)]);
          note(`bench:asr: determinism ${cond.name}, ${threads} thread(s), run ${r + 1}`);
        }
    } finally {
      await engine.close();
    }
  }
  const same = (a: string[], b: string[]) => JSON.stringify(a) === JSON.stringify(b);
  return files.map(([cond]) => {
    const runs = DETERMINISM_THREADS.map((t) => heard.get(`${cond.name}/${t}`)!);
    const first = runs[0]![0]!;
    const hyp = first.flatMap((line) => normWords(line.slice(line.indexOf(' ') + 1), 'en'));
    return {
      condition: cond.name,
      wer: (100 * levenshtein(ref, hyp)) / ref.length,
      same: Object.fromEntries(DETERMINISM_THREADS.map((t, i) => [t, runs[i]!.every((r) => same(r, runs[i]![0]!))])),
      across: runs.every((r) => same(r[0]!, first)),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Dense speech in a fresh process: RTF and peak RSS
// ---------------------------------------------------------------------------------------------

interface DenseRun {
  minutes: number;
  decoder: string;
  /** The same words as `before` at this length (null: not compared). */
  sameWords: boolean | null;
  rtf: number;
  /** CPU seconds (all threads) per audio second: steadier than wall time on a shared machine. */
  cpuPerAudio: number;
  /** Peak RSS while transcribing (Linux: reset after the model loaded); the whole process's beside it. */
  peakRssMiB: number;
  processPeakMiB: number;
  wer: number;
}

async function denseRuns(sets: SpeechSet[], long: boolean): Promise<DenseRun[]> {
  const english = sets.filter((s) => s.language === 'en' && s.kind === 'long').flatMap((s) => s.utterances);
  const out: DenseRun[] = [];
  const lengths = args.minutes ? String(args.minutes).split(',').map(Number) : long ? [1, 5, 20, 60] : [1];
  for (const minutes of lengths) {
    const file = path.join(ws.work, `dense-${minutes}.wav`);
    const said = writeDense(file, english, minutes * 60);
    const ref = said.flatMap((u) => normWords(u.text, 'en'));
    // The first decoder run at this length is the one the others' words are compared with.
    let before: string | null = null;
    for (const d of DENSE_DECODERS) {
      if (d.name === 'before' && minutes > 20) continue; // its speed and words are known from 1 to 20 min
      // As the conditions run: listening for the template's words, as a worker does for its account's.
      const r = await child(file, { ...d.options, load: DENSE_LOAD }, BIAS_BOOST > 0 ? VOCABULARY.en : []);
      const hyp = normWords(r.text, 'en');
      const sameWords = before === null ? null : r.text === before;
      before ??= r.text;
      out.push({
        minutes,
        decoder: d.name,
        sameWords,
        rtf: r.wallSeconds / r.audioSeconds,
        cpuPerAudio: r.cpuSeconds / r.audioSeconds,
        peakRssMiB: r.maxRssKb / 1024,
        processPeakMiB: r.processMaxRssKb / 1024,
        wer: (100 * levenshtein(ref, hyp)) / ref.length,
      });
      note(
        `bench:asr: dense ${minutes} min / ${d.name}: RTF ${round(r.wallSeconds / r.audioSeconds, 3)}, ${round(r.cpuSeconds / r.audioSeconds, 3)} CPU-s per audio-s, peak RSS ${round(r.maxRssKb / 1024, 0)} MiB`,
      );
    }
    rmSync(file);
  }
  return out;
}

/**
 * A mono 16-bit WAV of `seconds` of utterances with 0.3 s pauses, written in pieces (hours fit).
 * Returns the utterances said, in order (the reference).
 */
function writeDense<U extends { samples: Float32Array }>(file: string, utterances: U[], seconds: number): U[] {
  const pause = new Float32Array(Math.round(0.3 * RATE));
  const pieces: Float32Array[] = [];
  const said: U[] = [];
  let frames = 0;
  for (let i = 0; frames < seconds * RATE; i++) {
    const u = utterances[i % utterances.length]!;
    said.push(u);
    pieces.push(u.samples, pause);
    frames += u.samples.length + pause.length;
  }
  const header = encodeWav(new Float32Array(0), RATE);
  header.writeUInt32LE(36 + frames * 2, 4);
  header.writeUInt32LE(frames * 2, 40);
  const fd = openSync(file, 'w');
  writeSync(fd, header);
  for (const p of pieces) writeSync(fd, encodeWav(p, RATE).subarray(44));
  closeSync(fd);
  return said;
}

async function child(
  file: string,
  options: Decoder['options'] & { load?: string[] },
  vocabulary: readonly string[],
): Promise<{
  wallSeconds: number;
  cpuSeconds: number;
  audioSeconds: number;
  maxRssKb: number;
  processMaxRssKb: number;
  text: string;
}> {
  return new Promise((resolve, reject) => {
    const p = spawn(
      process.execPath,
      [
        // As `npm start` runs the worker: Node's own type stripping (no TypeScript loader, which took memory
        // in the process and in each recognition thread) and the service's V8 options.
        ...NODE_MEMORY_FLAGS,
        path.join(import.meta.dirname, 'asr-child.ts'),
        file,
        JSON.stringify(options),
        JSON.stringify(vocabulary),
      ],
      // The C allocator's settings a service process runs with (src/service/allocator.ts), as `npm start` sets them.
      { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...missingAllocatorEnv(process.env) } },
    );
    let out = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`asr-child exited ${code}`))));
  });
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

function pooled(ms: Measure[]) {
  const ref = ms.reduce((n, m) => n + m.refWords, 0);
  const err = ms.reduce((n, m) => n + m.errors, 0);
  const audio = ms.reduce((n, m) => n + m.audioSeconds, 0);
  const wall = ms.reduce((n, m) => n + m.wallSeconds, 0);
  const said = ms.reduce((n, m) => n + m.phrasesSaid, 0);
  const found = ms.reduce((n, m) => n + m.phrasesFound, 0);
  return {
    wer: (100 * err) / Math.max(1, ref),
    rtf: wall / Math.max(1e-9, audio),
    recall: (100 * found) / Math.max(1, said),
    said,
  };
}

function report(measures: Measure[], dense: DenseRun[], conds: Condition[], same: SameRun[]) {
  const by = (f: (m: Measure) => boolean, decoder: string) =>
    pooled(measures.filter((m) => f(m) && m.decoder === decoder));
  const pct = (x: number) => `${round(x, 1)} %`;
  const detail = conds.flatMap((c) =>
    [...new Set(measures.filter((m) => m.condition === c.name).map((m) => m.set))].map((set) => {
      const b = by((m) => m.condition === c.name && m.set === set, 'baseline');
      const n = by((m) => m.condition === c.name && m.set === set, 'current');
      const ran = measures.some((m) => m.condition === c.name && m.set === set && m.decoder === 'baseline');
      return [c.name, set, ran ? pct(b.wer) : '—', pct(n.wer), ran ? round(b.rtf, 3) : '—', round(n.rtf, 3)];
    }),
  );

  const long = (m: Measure) => m.kind === 'long';
  const clean = (m: Measure) => long(m) && m.condition === 'clean 16 kHz';
  const joined = (m: Measure) => m.condition === 'clean 16 kHz, joined';
  const cleanBase = (lang: string) => by((m) => clean(m) && m.language === lang, 'baseline').wer;
  const tel = (snr: number) => (m: Measure) => long(m) && m.condition === `telephone pink ${snr} dB`;
  const at10 = (m: Measure) => long(m) && / 10 dB$/.test(m.condition);
  type Row = [
    string,
    (m: Measure) => boolean,
    'wer' | 'recall',
    string | ((lang: string) => string),
    (v: number, lang: string) => boolean,
  ];
  const goalRows: Row[] = [
    [
      'clean 16 kHz, long speech',
      (m) => long(m) && m.condition === 'clean 16 kHz',
      'wer',
      (lang) => `≤ ${pct(cleanBase(lang))} (baseline)`,
      (v, lang) => v <= cleanBase(lang),
    ],
    [
      'clean 16 kHz, read speech joined (speakers separated)',
      joined,
      'wer',
      `≤ ${GOALS.joined} %`,
      (v) => v <= GOALS.joined,
    ],
    [
      'telephone μ-law + GSM, no noise',
      (m) => long(m) && (m.condition === 'telephone μ-law' || m.condition === 'GSM 06.10'),
      'wer',
      '—',
      () => true,
    ],
    ['telephone, pink 10 dB', tel(10), 'wer', `≤ ${GOALS.tel10} %`, (v) => v <= GOALS.tel10],
    ['telephone, pink 5 dB', tel(5), 'wer', `≤ ${GOALS.tel5} %`, (v) => v <= GOALS.tel5],
    ['telephone, pink 0 dB', tel(0), 'wer', '—', () => true],
    [
      'telephone, babble + street 10 dB',
      (m) => long(m) && /(babble|street) 10 dB$/.test(m.condition),
      'wer',
      `≤ ${GOALS.tel10} %`,
      (v) => v <= GOALS.tel10,
    ],
    [
      'telephone, babble + street 5 dB',
      (m) => long(m) && /(babble|street) 5 dB$/.test(m.condition),
      'wer',
      `≤ ${GOALS.tel5} %`,
      (v) => v <= GOALS.tel5,
    ],
    [
      'short answers, clean + telephone',
      (m) => m.kind === 'short' && !m.condition.includes('dB'),
      'wer',
      `≤ ${GOALS.short} %`,
      (v) => v <= GOALS.short,
    ],
    [
      'short answers, telephone pink 10 dB',
      (m) => m.kind === 'short' && m.condition.includes('10 dB'),
      'wer',
      '—',
      () => true,
    ],
    ['phrase recall, telephone 10 dB (all noises)', at10, 'recall', `≥ ${GOALS.recall} %`, (v) => v >= GOALS.recall],
  ];
  const summary = goalRows.flatMap(([label, f, what, goal, ok]) =>
    (['en', 'es'] as const).map((lang) => {
      const b = by((m) => f(m) && m.language === lang, 'baseline');
      const n = by((m) => f(m) && m.language === lang, 'current');
      const ran = measures.some((m) => f(m) && m.language === lang && m.decoder === 'baseline');
      const has = measures.some((m) => f(m) && m.language === lang && m.decoder === 'current');
      const goalText = typeof goal === 'function' ? goal(lang) : goal;
      if (!has || (what === 'recall' && n.said === 0))
        return [`${label} [${lang}]`, '—', '—', goalText, 'not measured'];
      return [
        `${label} [${lang}]`,
        ran ? pct(b[what]) : '—',
        pct(n[what]),
        goalText,
        ok(n[what], lang) ? 'met' : 'NOT met',
      ];
    }),
  );
  // Flat memory: each length's peak beside the 5-minute one (issue 18: within 50 MiB).
  const fiveMin = dense.find((d) => d.minutes === 5 && d.decoder === 'current')?.peakRssMiB;
  const denseRows = dense.map((d) => [
    `${d.minutes} min`,
    d.decoder,
    round(d.rtf, 3),
    d.decoder !== 'current' ? '—' : d.rtf <= GOALS.rtf ? 'met' : 'NOT met',
    round(d.cpuPerAudio, 3),
    `${round(d.wer, 1)} %`,
    d.sameWords === null ? '—' : d.sameWords ? 'yes' : 'NO',
    `${round(d.peakRssMiB, 0)} MiB`,
    d.decoder !== 'current' ? '—' : d.peakRssMiB <= RSS_GOAL_MIB ? 'met' : 'NOT met',
    `${round(d.processPeakMiB, 0)} MiB`,
    fiveMin === undefined || d.decoder !== 'current'
      ? '—'
      : `≤ ${round(fiveMin + GOALS.rssOver5Min, 0)} MiB: ${d.peakRssMiB <= fiveMin + GOALS.rssOver5Min ? 'met' : 'NOT met'}`,
  ]);

  const denoiseRows = conds
    .filter((c) => DENOISE_CONDITIONS.has(c.name))
    .flatMap((c) =>
      (['en', 'es'] as const).flatMap((lang) => {
        const f = (m: Measure) => m.condition === c.name && m.language === lang && m.kind === 'long';
        const off = measures.filter((m) => f(m) && m.decoder === 'denoise off');
        if (!off.length) return [];
        const estimates = off.map((m) => m.snrEstimate).filter((e) => e !== null);
        const mean = estimates.length ? estimates.reduce((a, b) => a + b, 0) / estimates.length : null;
        const auto = by(f, 'denoise auto');
        return [
          [
            `${c.name} [${lang}]`,
            c.snr === undefined ? 'clean' : `${c.snr} dB`,
            mean === null ? '—' : `${round(mean, 1)} dB (${estimates.map((e) => round(e, 0)).join(', ')})`,
            pct(by(f, 'denoise off').wer),
            pct(by(f, 'denoise on').wer),
            pct(auto.wer),
            round(by(f, 'denoise on').rtf, 3),
          ],
        ];
      }),
    );

  if (args.json) {
    console.log(JSON.stringify({ loadAtStart, measures, dense, determinism: same }, null, 2));
    return;
  }
  console.log(
    `\nbench:asr on ${os.cpus().length} cores, load average at start ${loadAtStart.join(' / ')}, ${round((performance.now() - started) / 60000, 1)} min`,
  );
  console.log(
    `Both through the streaming pipeline; baseline = as before issues 12 and 18 (greedy, ONNX graphs as shipped, all cores per session), current = the worker default for WORKER_CONCURRENCY=2 (beam ${args.beam}, the template's vocabulary)\n`,
  );
  console.log(table(['condition', 'speech', 'WER baseline', 'WER current', 'RTF baseline', 'RTF current'], detail));
  if (skipped.length) console.log(`\nNot run (--time-limit): ${skipped.join(', ')}`);
  console.log('\nGoals (WER pooled over the sets of each language; recall over the call lines)\n');
  console.log(table(['figure', 'baseline', 'current', 'goal', 'current vs goal'], summary));
  if (same.length) {
    const yes = (b: boolean) => (b ? 'yes' : 'NO');
    console.log(
      `\nDeterminism: the joined read speech ${DETERMINISM_RUNS} times per thread count (ASR_THREADS), as a worker runs it (vocabulary, speakers separated); goal: identical words and times\n`,
    );
    console.log(
      table(
        [
          'file',
          'WER',
          ...DETERMINISM_THREADS.map((t) => `identical, ${t} thread${t > 1 ? 's' : ''}`),
          'identical across',
        ],
        same.map((r) => [r.condition, pct(r.wer), ...DETERMINISM_THREADS.map((t) => yes(r.same[t]!)), yes(r.across)]),
      ),
    );
  }
  console.log(
    `\nNoise suppression (RNNoise) on the long sets, same files; auto = ASR_DENOISE=auto, on at an estimated SNR ≤ ${DENOISE_BELOW_DB} dB; default ${DEFAULT_DENOISE}\n`,
  );
  console.log(
    table(
      ['condition', 'true SNR', 'estimated SNR (mean; per set)', 'WER off', 'WER on', 'WER auto', 'RTF on'],
      denoiseRows,
    ),
  );
  console.log(
    `\nDense speech, fresh process per run with the en and es models loaded; before = the decoder before issue 30 (a first-step model per thread), ${BATCH > 1 ? `unbatched = today's decoder unbatched (${defaultRecognitionThreads()} recognition threads, one copy of the decoder's weights each), current = ${BATCH} chunks decoded together on one recognition thread (ASR_BATCH, one copy of the weights, ${os.availableParallelism()} ONNX threads; the next group gathers while one decodes and starts full), one batch in flight = current with the scheduling before full groups (${BATCH} chunks in the thread, new ones starting at half the slots)` : `current = one copy of the decoder's weights per thread, ${DECODERS[1]!.options.threads} recognition threads`}; all beam ${args.beam}, the template's vocabulary (RTF = wall / audio, goal ≤ ${GOALS.rtf}; CPU = CPU seconds of all threads per audio second; WER against the utterances said; same words = the transcript is the first one run at that length (before, or unbatched past 20 min), character for character; peak RSS while transcribing, goals ≤ ${RSS_GOAL_MIB} MiB and within ${GOALS.rssOver5Min} MiB of 5 min; process peak including the model load)\n`,
  );
  console.log(
    table(
      [
        'length',
        'decoder',
        'RTF',
        'RTF goal',
        'CPU',
        'WER',
        'same words',
        'peak RSS',
        `≤ ${RSS_GOAL_MIB} MiB`,
        'process peak',
        'vs 5 min',
      ],
      denseRows,
    ),
  );
}

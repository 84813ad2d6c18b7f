// bench:verdicts — are the QA criteria of the shipped example templates judged right on noisy calls?
// Scripted two-speaker stereo calls (agent left, customer right) whose truth is known: for every phrase
// and forbidden criterion, whether the agent said it and when (the customer sometimes says an agent's
// phrase: that must not count). Agent and customer lines are espeak-ng voices at several speeds, in
// English and Spanish; in every third English call the customer's middle turn is real recorded speech
// (LibriVox, Debian's pocketsphinx-testdata). Each call is heard clean and through the telephone chain
// (300–3400 Hz, 8 kHz, μ-law) with pink, babble and street noise at 10 and 5 dB (bench:asr's noise and
// chain), each channel at its own SNR, and is transcribed and analysed exactly as the worker does it
// (transcribeFile with the template's vocabulary, then analyzeCall with recordingScorer on the file).
// The same transcript is also analysed from the text alone: today's behaviour, the same-run baseline.
//
// Calls alternate between two sets: even calls are the tuning set (the thresholds in
// src/analysis/acoustic.ts were chosen on them), odd calls the held-out set (other voices, speeds and
// wordings), which the goals are judged on.
//
//   npm run bench:verdicts                     16 calls, noise stretch 1 of 3
//   npm run bench:verdicts -- --full           64 calls, all three noise stretches (several hours here)
//   npm run bench:verdicts -- --calls 20 --stretches 2 --margins
//   npm run bench:verdicts -- --only 0,4 --condition babble --transcripts --out FILE
//     (cases seen in a long run again, keeping what the recogniser heard)
//   npm run bench:verdicts -- … --babble-gate off   (the voice detector as before src/audio/babble.ts)
import { execFile } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { analyzeCall, enCustomerSupport, esAtencionCliente, tokenize } from '../../src/analysis/index.ts';
import type { AnalysisResult } from '../../src/analysis/index.ts';
import { HEARD_MARGIN, type Heard, UNSURE_MARGIN } from '../../src/analysis/acoustic.ts';
import { templatePhrases } from '../../src/accounts/vocabulary.ts';
import { levenshtein } from '../../src/domain/text.ts';
import { NoSpeechError } from '../../src/transcription/engine.ts';
import { resolveModelsDir, transcribeFile } from '../../src/transcription/index.ts';
import { MoonshineThreads } from '../../src/transcription/moonshine-threads.ts';
import { recordingScorer } from '../../src/transcription/recording-scorer.ts';
import { RATE, limitPeak, load16k, mixNoise, noiseStretches, throughChain, type NoiseKind } from './asr-speech.ts';
import { benchWorkspace, note, round, table } from './lib.ts';

const run = promisify(execFile);
const { values: args } = parseArgs({
  options: {
    full: { type: 'boolean', default: false },
    calls: { type: 'string' },
    stretches: { type: 'string' },
    margins: { type: 'boolean', default: false },
    /** Stop starting new runs after this many minutes and report what finished (the machine is shared). */
    minutes: { type: 'string' },
    /** Append each finished run to this JSON-lines file (a long run that is stopped keeps what it did). */
    out: { type: 'string' },
    /** Print the table of a JSON-lines file written by --out, without running anything. */
    report: { type: 'string' },
    /** Only these calls (indexes, comma-separated): a case seen in a long run, heard again after a change. */
    only: { type: 'string' },
    /** Only the conditions whose name contains this text (e.g. "babble", "10 dB", "clean"). */
    condition: { type: 'string' },
    /** Keep each call's transcript (speaker, times, text) in the --out file: what the analysis read. */
    transcripts: { type: 'boolean', default: false },
    /** 'off': the voice detector follows Silero alone on stereo calls too, as before src/audio/babble.ts. */
    'babble-gate': { type: 'string', default: 'on' },
    /**
     * Keep each call's audio and transcript in this directory and reuse them when they are there: the
     * analysis is tuned again on the same transcripts without transcribing again (transcription is
     * deterministic; the CPU of transcription is the one measured when the transcript was made). Clear
     * the directory after changing transcription.
     */
    cache: { type: 'string' },
    /**
     * With --cache: only transcribe the calls into the cache, judging nothing and printing no verdict. A
     * held-out set is transcribed while the analysis is still being tuned, and read once at the end.
     */
    'transcribe-only': { type: 'boolean', default: false },
  },
});
if (args['transcribe-only'] && !args.cache) throw new Error('--transcribe-only needs --cache');
const CALLS = Number(args.calls ?? (args.full ? 64 : 16));
const ONLY = args.only ? new Set(args.only.split(',').map(Number)) : null;
const STRETCHES = Number(args.stretches ?? (args.full ? 3 : 1));

// Held-out calls (odd N) read once and tuned on since: only these and the even calls may be listed
// verdict by verdict (--margins, --transcripts). An unread held-out call's one reading judges the goals,
// in aggregate (docs/benchmarks/verdicts.md); when a set is read, its range is added here.
const SPENT_HELD_OUT: readonly (readonly [number, number])[] = [
  [1, 19],
  [61, 99],
  [101, 139],
];
if (args.margins || args.transcripts) {
  const listed = ONLY ? [...ONLY].filter((n) => n < CALLS) : Array.from({ length: CALLS }, (_, n) => n);
  const unread = listed.filter((n) => n % 2 === 1 && !SPENT_HELD_OUT.some(([a, b]) => n >= a && n <= b));
  if (unread.length)
    throw new Error(
      `--margins and --transcripts list tuning calls only; held-out call(s) ${unread.slice(0, 6).join(', ')}${unread.length > 6 ? '…' : ''} are unread (spent: ${SPENT_HELD_OUT.map(([a, b]) => `${a}–${b}`).join(', ')} odd)`,
    );
}

type Lang = 'en' | 'es';
type Who = 'agent' | 'customer';
interface Line {
  who: Who;
  text: string;
  /** Recorded speech instead of a synthetic voice. */
  file?: string;
}
interface Truth {
  key: string;
  /** What the criterion asks was done by the agent (a phrase said; for forbidden, none said). */
  done: boolean;
}

// Line pools: [said, not said] per criterion; customer lines around them.
const POOLS = {
  en: {
    greeting: [
      [
        'Thank you for calling Acme, my name is Laura, how can I help you today?',
        'Good morning, welcome to Acme. How may I help you?',
        "Hi, you've reached Acme, this is Daniel speaking.",
        'Thanks for calling Acme, how can I help?',
      ],
      ['Hello, how can I help you today?', 'Good morning, what can I do for you?', 'Hi there, how may I help?'],
    ],
    problem: [
      'Hi, my internet has not been working since yesterday.',
      'Hello, I was charged twice on my last bill.',
      'I want to know why my order has not arrived yet.',
      'I would like to change my plan, please.',
    ],
    identify_customer: [
      [
        'Sure, can I have your name please?',
        'Of course. May I have your account number?',
        'Could I get your name and your date of birth?',
        'Okay, who am I speaking with?',
      ],
      ['Okay, let me take a look at that.', 'Right, what seems to be the problem exactly?'],
    ],
    answer: ['Yes, it is John Smith.', 'It is four five one two nine.', 'My name is Maria Lopez.'],
    empathy: [
      [
        "I'm sorry to hear that, let me check your account.",
        'I completely understand, let me see what happened.',
        'I understand, and I apologize for the trouble.',
      ],
      ['Let me check your account.', 'One moment while I look into it.'],
    ],
    middle: ['I have been waiting for a week now.', 'Okay, thank you.'],
    empathyByCustomer: 'I understand, but I need it fixed today.',
    no_inappropriate_language: [
      ["Well, that's not my problem, you need to call the bank.", 'Please calm down, I am trying to help you.'],
      ['I have fixed the problem on your account.', 'The refund will arrive in three days.'],
    ],
    forbiddenByCustomer: 'This is not my fault, I paid on time.',
    thanks: ['Great, thanks a lot.', 'Perfect, thank you.'],
    closing: [
      [
        'Is there anything else I can help you with?',
        'Can I help you with anything else today?',
        'Is there anything else I can do for you?',
      ],
      ['Have a nice day, goodbye.', 'Thank you, goodbye.'],
    ],
  },
  es: {
    greeting: [
      [
        'Gracias por llamar a Acme, le atiende Lucía, en qué puedo ayudarle?',
        'Buenos días, bienvenido a Acme. En qué puedo ayudarle?',
        'Ha llamado a Acme, mi nombre es Carlos.',
      ],
      ['Hola, buenos días, en qué puedo ayudarle?', 'Buenas tardes, dígame.'],
    ],
    problem: [
      'Hola, no tengo internet desde ayer.',
      'Me han cobrado dos veces la factura.',
      'Mi pedido no ha llegado todavía.',
    ],
    identify_customer: [
      [
        'Claro, me puede dar su nombre completo?',
        'De acuerdo, me indica su número de cliente?',
        'Me confirma su fecha de nacimiento, por favor?',
      ],
      ['Vale, voy a revisarlo.', 'Muy bien, cuénteme qué ha pasado.'],
    ],
    answer: ['Sí, me llamo Juan García.', 'Es el cuatro cinco uno dos.', 'Soy María López.'],
    empathy: [
      [
        'Lo entiendo, lamento las molestias.',
        'Entiendo perfectamente su preocupación.',
        'Disculpe las molestias, ahora lo reviso.',
      ],
      ['Un momento, por favor, lo compruebo.', 'Voy a mirar su cuenta.'],
    ],
    middle: ['Llevo una semana esperando.', 'Vale, gracias.'],
    empathyByCustomer: 'Lo entiendo, pero necesito una solución hoy.',
    no_inappropriate_language: [
      ['Mire, eso no es mi problema, llame al banco.', 'No sé qué decirle, el sistema es así.'],
      ['Ya he solucionado el problema en su cuenta.', 'La devolución llegará en tres días.'],
    ],
    forbiddenByCustomer: 'No es culpa mía, yo pagué a tiempo.',
    thanks: ['Perfecto, muchas gracias.', 'Estupendo, gracias.'],
    closing: [
      ['Hay algo más en lo que pueda ayudarle?', 'Desea algo más?', 'Puedo ayudarle en algo más?'],
      ['Que tenga un buen día, adiós.', 'Gracias por su llamada, adiós.'],
    ],
  },
} as const;
// The template's key of each of the five criteria, per language.
const KEYS: Record<Lang, Record<string, string>> = {
  en: {
    greeting: 'greeting',
    identify_customer: 'identify_customer',
    empathy: 'empathy',
    no_inappropriate_language: 'no_inappropriate_language',
    closing: 'closing',
  },
  // The example Spanish template keeps the English keys (only its labels and phrases are Spanish).
  es: {
    greeting: 'greeting',
    identify_customer: 'identify_customer',
    empathy: 'empathy',
    no_inappropriate_language: 'no_inappropriate_language',
    closing: 'closing',
  },
};
// Voices and speeds (words per minute): tuning calls use set A, held-out calls set B.
const VOICES: Record<Lang, Record<'A' | 'B', { agent: string[]; customer: string[]; speed: number[] }>> = {
  en: {
    A: { agent: ['en-us', 'en-gb+f3'], customer: ['en+m3', 'en-us+m1'], speed: [150, 165] },
    B: { agent: ['en-gb+m4', 'en-us+f2'], customer: ['en+f4', 'en-us+m4'], speed: [140, 175] },
  },
  es: {
    A: { agent: ['es', 'es-419+f2'], customer: ['es+m3', 'es+m1'], speed: [150, 165] },
    B: { agent: ['es+f3', 'es-419+m2'], customer: ['es+f4', 'es-419+m4'], speed: [140, 175] },
  },
};
const REAL = [
  'librivox/sense_and_sensibility_01_austen_64kb-0880.wav',
  'librivox/sense_and_sensibility_01_austen_64kb-0930.wav',
  'librivox/sense_and_sensibility_01_austen_64kb-0890.wav',
];
const REAL_TEXT: Record<string, string> = {
  [REAL[0]!]: 'he was not an ill disposed young man',
  [REAL[1]!]: 'he might even have been made amiable himself',
  [REAL[2]!]: 'unless to be rather cold hearted and rather selfish is to be ill disposed',
};

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Call {
  index: number;
  language: Lang;
  set: 'tuning' | 'held-out';
  lines: Line[];
  truth: Truth[];
  voices: { agent: string; customer: string; speed: number };
}

function script(index: number): Call {
  const rnd = prng(7919 * (index + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const language: Lang = index % 4 < 2 ? 'en' : 'es';
  const set = index % 2 === 0 ? 'tuning' : 'held-out';
  const p = POOLS[language];
  const v = VOICES[language][set === 'tuning' ? 'A' : 'B'];
  const truth: Truth[] = [];
  const said = (key: keyof typeof KEYS.en, chance: number, forbidden = false): string => {
    const yes = rnd() < chance;
    truth.push({ key: KEYS[language][key]!, done: forbidden ? !yes : yes });
    const [withIt, without] = p[key as 'greeting'];
    return pick(yes ? withIt : without);
  };
  const lines: Line[] = [];
  const agent = (text: string) => lines.push({ who: 'agent', text });
  const customer = (text: string, file?: string) => lines.push({ who: 'customer', text, ...(file ? { file } : {}) });
  agent(said('greeting', 0.6));
  customer(pick(p.problem));
  agent(said('identify_customer', 0.6));
  customer(pick(p.answer));
  const empathy = said('empathy', 0.5);
  agent(empathy);
  const agentEmpathy = truth.at(-1)!.done;
  if (language === 'en' && index % 3 === 0) {
    const file = REAL[(index / 3) % REAL.length]!;
    customer(REAL_TEXT[file]!, file);
  } else customer(!agentEmpathy && rnd() < 0.5 ? p.empathyByCustomer : pick(p.middle));
  const forbidden = said('no_inappropriate_language', 0.3, true);
  agent(forbidden);
  customer(truth.at(-1)!.done && rnd() < 0.4 ? p.forbiddenByCustomer : pick(p.thanks));
  agent(said('closing', 0.6));
  return {
    index,
    language,
    set,
    lines,
    truth,
    voices: { agent: pick(v.agent), customer: pick(v.customer), speed: pick(v.speed) },
  };
}

const speechDir = path.join(os.tmpdir(), 'escucha-bench-verdicts-speech');
async function voiced(text: string, voice: string, speed: number): Promise<Float32Array> {
  mkdirSync(speechDir, { recursive: true });
  const file = path.join(
    speechDir,
    `${Buffer.from(`${voice}|${speed}|${text}`).toString('base64url').slice(0, 120)}.wav`,
  );
  if (!existsSync(file)) await run('espeak-ng', ['-v', voice, '-s', String(speed), '-w', file, '--', text]);
  return load16k(file);
}

/** The call's two channels at 16 kHz, the samples spans of each speaker's turns. */
async function render(call: Call, realDir: string | null) {
  const gap = Math.round(0.6 * RATE);
  const clips: Float32Array[] = [];
  for (const line of call.lines) {
    if (line.file && realDir) clips.push(await load16k(path.join(realDir, line.file)));
    else
      clips.push(
        await voiced(line.text, line.who === 'agent' ? call.voices.agent : call.voices.customer, call.voices.speed),
      );
  }
  const total = clips.reduce((n, c) => n + c.length + gap, gap);
  const channels = [new Float32Array(total), new Float32Array(total)];
  const spans: [number, number][][] = [[], []];
  let at = gap;
  call.lines.forEach((line, i) => {
    const ch = line.who === 'agent' ? 0 : 1;
    channels[ch]!.set(clips[i]!, at);
    spans[ch]!.push([at, at + clips[i]!.length]);
    at += clips[i]!.length + gap;
  });
  return { channels, spans, seconds: total / RATE };
}

interface Condition {
  name: string;
  noise?: NoiseKind;
  snr?: number;
}
const CONDITIONS: Condition[] = [
  { name: 'clean' },
  ...(['pink', 'babble', 'street'] as const).flatMap((noise) =>
    [10, 5].map((snr) => ({ name: `telephone ${noise} ${snr} dB`, noise, snr })),
  ),
];

type Verdict = 'right' | 'false_fail' | 'false_pass' | 'unsure';
interface Outcome {
  call: Call;
  condition: string;
  stretch: number;
  verdicts: {
    key: string;
    text: Verdict;
    audio: Verdict;
    margin: number | null;
    perToken: number | null;
    done: boolean;
  }[];
  wer: { errors: number; words: number };
  seconds: number;
  cpu: { transcribe: number; text: number; audio: number };
  transcript?: { speaker: string; start: number; end: number; text: string }[];
}

function verdict(result: AnalysisResult, key: string, done: boolean): Verdict {
  const c = result.criteria.find((x) => x.key === key)!;
  if (c.low_confidence) return 'unsure';
  const passed = c.result === 'passed';
  if (passed === done) return 'right';
  return done ? 'false_fail' : 'false_pass';
}

const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1e6;
};

async function main() {
  const ws = benchWorkspace('escucha-bench-verdicts-');
  const realDir = existsSync('/usr/share/pocketsphinx/test/data')
    ? '/usr/share/pocketsphinx/test/data'
    : existsSync(path.join(os.tmpdir(), 'escucha-bench-speech/usr/share/pocketsphinx/test/data'))
      ? path.join(os.tmpdir(), 'escucha-bench-speech/usr/share/pocketsphinx/test/data')
      : null;
  if (!realDir) note('pocketsphinx-testdata not found: the real-speech turns are spoken by espeak-ng instead');
  const engine = new MoonshineThreads({ modelsDir: resolveModelsDir(), threads: 2 });
  const engines = [engine];
  const templates = { en: enCustomerSupport.definition, es: esAtencionCliente.definition };
  const vocabulary = { en: templatePhrases(templates.en), es: templatePhrases(templates.es) };
  const stretches = new Map<NoiseKind, Float32Array[]>();
  for (const kind of ['pink', 'babble', 'street'] as const) stretches.set(kind, await noiseStretches(kind));
  const outcomes: Outcome[] = [];
  const started = performance.now();
  if (args.cache) mkdirSync(args.cache, { recursive: true });
  try {
    for (let i = 0; i < (ONLY ? Math.max(...ONLY) + 1 : CALLS); i++) {
      if (ONLY && !ONLY.has(i)) continue;
      const call = script(i);
      const audio = await render(call, realDir);
      for (const cond of CONDITIONS.filter((c) => !args.condition || c.name.includes(args.condition)))
        for (let stretch = 0; stretch < (cond.noise ? STRETCHES : 1); stretch++) {
          if (args.minutes && performance.now() - started > Number(args.minutes) * 60_000) continue;
          const base = `${i}-${cond.name.replaceAll(' ', '_')}-${stretch}`;
          const cached = args.cache ? path.join(args.cache, `${base}.json`) : null;
          if (cached && existsSync(cached)) {
            if (args['transcribe-only']) continue;
            const kept = JSON.parse(readFileSync(cached, 'utf8')) as {
              file: string;
              heard: Awaited<ReturnType<typeof transcribeFile>>;
              transcribe: number;
            };
            await judge(call, cond, stretch, kept.file, kept.heard, kept.transcribe);
            continue;
          }
          const channels = audio.channels.map((c) => new Float32Array(c));
          if (cond.noise)
            for (const [ch, c] of channels.entries())
              mixNoise(c, audio.spans[ch]!, stretches.get(cond.noise)!, cond.snr!, stretch + ch);
          limitPeak(channels);
          const file = await throughChain(
            channels,
            path.join(args.cache ?? ws.work, base),
            cond.noise ? 'telephone' : 'none',
          );
          const language = call.language;
          const since = process.cpuUsage();
          // A call where the recogniser hears no words at all (it happens at 5 dB babble) is judged on
          // an empty transcript, as the analysis would see it, rather than ending the bench.
          const heard = await transcribeFile(file, {
            engines,
            language,
            agentChannel: 'left',
            vocabulary: vocabulary[language],
            ...(args['babble-gate'] === 'off' ? { vad: { babbleGate: false } } : {}),
          }).catch((err: unknown) => {
            if (!(err instanceof NoSpeechError)) throw err;
            note(`#${i} ${cond.name}: no words recognised in the whole call`);
            return { segments: [], durationSeconds: audio.seconds, channels: 2 };
          });
          const transcribe = cpuSeconds(since);
          if (cached) writeFileSync(cached, JSON.stringify({ file, heard, transcribe }));
          if (args['transcribe-only']) continue;
          await judge(call, cond, stretch, file, heard, transcribe);
        }
      note(`call ${i + 1}/${CALLS} done, ${round((performance.now() - started) / 60000, 1)} min`);
    }
  } finally {
    await engine.close();
    await ws.cleanup();
  }
  if (!args['transcribe-only']) report(outcomes);

  async function judge(
    call: Call,
    cond: Condition,
    stretch: number,
    file: string,
    heard: Pick<Awaited<ReturnType<typeof transcribeFile>>, 'segments' | 'durationSeconds' | 'channels'>,
    transcribe: number,
  ) {
    const i = call.index;
    const language = call.language;
    const reference = call.lines.flatMap((l) => tokenize(l.text));
    const input = {
      segments: heard.segments,
      durationSeconds: heard.durationSeconds,
      channels: heard.channels,
      language,
    };
    let since = process.cpuUsage();
    const fromText = await analyzeCall(input, templates[language]);
    const text = cpuSeconds(since);
    since = process.cpuUsage();
    let listened: ReadonlyMap<string, readonly Heard[]> = new Map();
    const fromAudio = await analyzeCall(input, templates[language], {
      audio: recordingScorer(file, engines, language),
      onListened: (h) => {
        listened = h;
      },
    });
    const audioCpu = cpuSeconds(since);
    const hyp = heard.segments.flatMap((s) => tokenize(s.text));
    outcomes.push({
      call,
      condition: cond.name,
      stretch,
      verdicts: call.truth.map((t) => {
        const c = fromAudio.criteria.find((x) => x.key === t.key)!;
        const at = c.reason_params?.at;
        return {
          key: t.key,
          done: t.done,
          text: verdict(fromText, t.key, t.done),
          audio: verdict(fromAudio, t.key, t.done),
          margin: listened.get(t.key)?.reduce((m, h) => Math.max(m, h.margin), -Infinity) ?? null,
          perToken: listened.get(t.key)?.reduce((m, h) => Math.max(m, h.perToken), -Infinity) ?? null,
          ...(args.margins ? { reason: c.reason, at, heard: listened.get(t.key) ?? [] } : {}),
        };
      }),
      wer: { errors: levenshtein(reference, hyp), words: reference.length },
      seconds: heard.durationSeconds,
      cpu: { transcribe, text, audio: audioCpu },
      ...(args.transcripts
        ? {
            transcript: heard.segments.map((s) => ({
              speaker: s.speaker,
              start: s.start,
              end: s.end,
              text: s.text,
              ...(s.guessed ? { guessed: true } : {}),
            })),
          }
        : {}),
    });
    if (args.out) appendFileSync(args.out, `${JSON.stringify(outcomes.at(-1))}\n`);
    if (args.margins)
      for (const v of outcomes.at(-1)!.verdicts)
        if (v.margin !== null)
          note(
            `${call.set} #${i} ${language} ${cond.name}/${stretch} ${v.key} done=${v.done} text=${v.text} audio=${v.audio} margin=${v.margin} per token=${v.perToken}: ${fromAudio.criteria.find((x) => x.key === v.key)!.reason}`,
          );
  }
}

function report(outcomes: Outcome[]) {
  const pct = (n: number, d: number) => (d ? `${round((100 * n) / d, 1)} %` : '—');
  const rows: (string | number)[][] = [];
  const groups: [string, (o: Outcome) => boolean][] = [
    ['clean', (o) => o.condition === 'clean'],
    ...CONDITIONS.filter((c) => c.noise).map((c): [string, (o: Outcome) => boolean] => [
      c.name,
      (o) => o.condition === c.name,
    ]),
    ['all at 10 dB', (o) => o.condition.endsWith(' 10 dB')],
    ['all at 5 dB', (o) => o.condition.endsWith(' 5 dB')],
  ];
  for (const set of ['held-out', 'tuning'] as const)
    for (const [name, keep] of groups) {
      const os = outcomes.filter((o) => o.call.set === set && keep(o));
      if (!os.length) continue;
      const vs = os.flatMap((o) => o.verdicts);
      const count = (which: 'text' | 'audio', v: Verdict) => vs.filter((x) => x[which] === v).length;
      const decided = (which: 'text' | 'audio') => vs.length - count(which, 'unsure');
      const wer =
        os.reduce((a, o) => a + o.wer.errors, 0) /
        Math.max(
          1,
          os.reduce((a, o) => a + o.wer.words, 0),
        );
      const minutes = os.reduce((a, o) => a + o.seconds, 0) / 60;
      const cpu = (k: 'transcribe' | 'text' | 'audio') => os.reduce((a, o) => a + o.cpu[k], 0) / minutes;
      const today = cpu('transcribe') + cpu('text');
      rows.push([
        set,
        name,
        vs.length,
        `${pct(count('text', 'right'), decided('text'))} → ${pct(count('audio', 'right'), decided('audio'))}`,
        `${pct(count('text', 'false_fail'), vs.length)} → ${pct(count('audio', 'false_fail'), vs.length)}`,
        `${pct(count('text', 'false_pass'), vs.length)} → ${pct(count('audio', 'false_pass'), vs.length)}`,
        `${pct(count('text', 'unsure'), vs.length)} → ${pct(count('audio', 'unsure'), vs.length)}`,
        `${round(100 * wer, 1)} %`,
        round(today, 1),
        `${round(cpu('audio'), 2)} (+${round((100 * (cpu('audio') - cpu('text'))) / today, 1)} %)`,
      ]);
    }
  console.log(
    `\nbench:verdicts: ${new Set(outcomes.map((o) => o.call.index)).size} calls (${outcomes.filter((o) => o.condition === 'clean').length} clean runs), ${STRETCHES} noise stretch(es) per noisy condition, on ${os.cpus().length} shared cores; thresholds heard ≥ ${HEARD_MARGIN}, unsure ≥ ${UNSURE_MARGIN} nats per token of the phrase`,
  );
  console.log(
    'Verdicts of the phrase and forbidden criteria, text only (today) → with the audio. Agreement over decided verdicts; false fails, false passes and unsure over all; CPU seconds per call-minute.\n',
  );
  console.log(
    table(
      [
        'set',
        'condition',
        'verdicts',
        'agreement',
        'false fails',
        'false passes',
        'unsure',
        'WER',
        'CPU today',
        'CPU analysis with audio (added)',
      ],
      rows,
    ),
  );
}

if (args.report)
  report(
    readFileSync(args.report, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Outcome),
  );
else await main();

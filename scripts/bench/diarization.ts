// `npm run bench:diarization`: diarization error rate of mono mixes of two voices (src/audio/diarize.ts).
//
// Calls are built from espeak-ng voices that differ (a man and a woman, two men, different pitch and
// speed) in English and Spanish, and from real recorded English (pocketsphinx-testdata: a LibriVox
// reader and the CMU command speakers), turns alternating with pauses of 0.15–1 s (a pause under
// 0.5 s keeps both turns in one voice region, so only change detection can split them) and short
// answers. Each is heard clean (16 kHz) and as an 8 kHz μ-law telephone line. The same voice
// regions are also scored as "one speaker" and "alternate at every region" (baselines), and calls of
// a single voice check that one voice is not split in two.
//
// DER = (missed + false alarm + confusion) / reference speech, with a 0.25 s collar around every
// reference boundary left unscored and the best mapping of the two found voices to the two real ones.
// `--json` prints the figures as JSON on stdout.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Diarizer } from '../../src/audio/diarize.ts';
import { SpeechTracker } from '../../src/audio/vad.ts';
import { RATE, load16k } from './asr-speech.ts';
import { note } from './lib.ts';

const run = promisify(execFile);
const GOAL_DER = 0.15;
const COLLAR = 0.25;
const json = process.argv.includes('--json');

interface Voice {
  name: string;
  /** espeak-ng voice, pitch (0–99) and words per minute; or a real recording's file. */
  espeak?: { voice: string; pitch: number; speed: number };
}

const EN_AGENT = [
  'Hello, thank you for calling Acme. My name is Laura, how can I help you today?',
  'I am sorry to hear that. Can I have your account number please?',
  'Thank you. I can see the router was replaced last month.',
  'I will send a technician tomorrow morning between nine and twelve.',
  'Is there anything else I can help you with today?',
  'Thank you for your patience, goodbye.',
];
const EN_CUSTOMER = [
  'Hi, my internet is not working and the router keeps restarting every evening.',
  'Sure, it is four five six seven eight nine.',
  'Yes.',
  'That works for me, thanks.',
  'No, that is all.',
  'Bye.',
];
const ES_AGENT = [
  'Hola, gracias por llamar a Acme. Le atiende Lucía, en qué puedo ayudarle?',
  'Lamento las molestias. Me puede dar su número de cliente, por favor?',
  'Gracias. Veo que el router se cambió el mes pasado.',
  'Le envío un técnico mañana por la mañana entre las nueve y las doce.',
  'Hay algo más en lo que pueda ayudarle?',
  'Muchas gracias por su paciencia, adiós.',
];
const ES_CUSTOMER = [
  'Hola, no tengo internet y el router se reinicia todas las tardes.',
  'Claro, es cuatro cinco seis siete ocho nueve.',
  'Sí.',
  'Perfecto, muchas gracias.',
  'No, eso es todo.',
  'Adiós.',
];
// Pauses between turns: under 0.5 s the VAD keeps both turns in one region.
const GAPS = [0.8, 0.3, 1.0, 0.2, 0.6, 0.15, 0.9, 0.4, 0.7, 0.25, 1.0];

interface CallSpec {
  name: string;
  language: 'en' | 'es' | 'en (real)';
  agent: Voice;
  customer: Voice;
  agentLines: string[];
  customerLines: string[];
  /** Both sides spoken by the agent's voice: nothing should be split. */
  oneVoice?: boolean;
}

const v = (voice: string, pitch: number, speed: number): Voice => ({
  name: `${voice} p${pitch} s${speed}`,
  espeak: { voice, pitch, speed },
});

const CALLS: CallSpec[] = [
  {
    name: 'man / woman',
    language: 'en',
    agent: v('en-us', 40, 160),
    customer: v('en+f3', 60, 140),
    agentLines: EN_AGENT,
    customerLines: EN_CUSTOMER,
  },
  {
    name: 'woman / man',
    language: 'en',
    agent: v('en-gb+f4', 55, 170),
    customer: v('en-us+m3', 35, 145),
    agentLines: EN_AGENT,
    customerLines: EN_CUSTOMER,
  },
  {
    name: 'two men',
    language: 'en',
    agent: v('en-us', 50, 165),
    customer: v('en-gb+m1', 30, 140),
    agentLines: EN_AGENT,
    customerLines: EN_CUSTOMER,
  },
  {
    name: 'man / woman',
    language: 'es',
    agent: v('es', 40, 160),
    customer: v('es+f4', 60, 140),
    agentLines: ES_AGENT,
    customerLines: ES_CUSTOMER,
  },
  {
    name: 'woman / man',
    language: 'es',
    agent: v('es-419+f2', 55, 170),
    customer: v('es+m3', 35, 145),
    agentLines: ES_AGENT,
    customerLines: ES_CUSTOMER,
  },
  {
    name: 'two men',
    language: 'es',
    agent: v('es', 50, 165),
    customer: v('es-419+m1', 30, 140),
    agentLines: ES_AGENT,
    customerLines: ES_CUSTOMER,
  },
  {
    name: 'one voice',
    language: 'en',
    agent: v('en-us', 45, 155),
    customer: v('en-us', 45, 155),
    agentLines: EN_AGENT,
    customerLines: EN_CUSTOMER,
    oneVoice: true,
  },
  {
    name: 'one voice',
    language: 'es',
    agent: v('es', 45, 155),
    customer: v('es', 45, 155),
    agentLines: ES_AGENT,
    customerLines: ES_CUSTOMER,
    oneVoice: true,
  },
];

const cacheDir = path.join(os.tmpdir(), 'escucha-bench-diarization');

async function espeak(text: string, e: NonNullable<Voice['espeak']>): Promise<Float32Array> {
  mkdirSync(cacheDir, { recursive: true });
  const key = createHash('sha256')
    .update(JSON.stringify([text, e]))
    .digest('hex')
    .slice(0, 16);
  const file = path.join(cacheDir, `${key}.wav`);
  if (!existsSync(file))
    await run('espeak-ng', ['-v', e.voice, '-p', String(e.pitch), '-s', String(e.speed), '-w', file, '--', text]);
  return load16k(file);
}

interface Turn {
  speaker: 0 | 1;
  start: number;
  end: number;
}

/** Lays the clips end to end with the given pauses; returns the mix and where each turn is. */
function mix(clips: { speaker: 0 | 1; samples: Float32Array }[]): { samples: Float32Array; turns: Turn[] } {
  const lead = 0.5;
  const gaps = clips.map((_, i) => GAPS[i % GAPS.length]!);
  const total = clips.reduce((n, c, i) => n + c.samples.length + Math.round(gaps[i]! * RATE), Math.round(lead * RATE));
  const samples = new Float32Array(total + RATE);
  const turns: Turn[] = [];
  let at = Math.round(lead * RATE);
  clips.forEach((c, i) => {
    // Trim espeak's leading/trailing silence so the reference spans are the spoken part.
    const { from, to } = trim(c.samples);
    const part = c.samples.subarray(from, to);
    samples.set(part, at);
    turns.push({ speaker: c.speaker, start: at / RATE, end: (at + part.length) / RATE });
    at += part.length + Math.round(gaps[i]! * RATE);
  });
  return { samples: samples.subarray(0, at + Math.round(0.5 * RATE)), turns };
}

function trim(s: Float32Array): { from: number; to: number } {
  const threshold = 0.01;
  let from = 0;
  while (from < s.length && Math.abs(s[from]!) < threshold) from++;
  let to = s.length;
  while (to > from && Math.abs(s[to - 1]!) < threshold) to--;
  return { from: Math.max(0, from - 160), to: Math.min(s.length, to + 160) };
}

/** The mix through an 8 kHz μ-law line (encode and decode with ffmpeg). */
async function telephone(samples: Float32Array): Promise<Float32Array> {
  const key = createHash('sha256')
    .update(Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength))
    .digest('hex');
  const raw = path.join(cacheDir, `${key.slice(0, 16)}.f32`);
  const ulaw = path.join(cacheDir, `${key.slice(0, 16)}.ulaw.wav`);
  if (!existsSync(ulaw)) {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(raw, Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength));
    await run('ffmpeg', [
      '-nostdin',
      '-v',
      'error',
      '-y',
      '-f',
      'f32le',
      '-ar',
      String(RATE),
      '-ac',
      '1',
      '-i',
      raw,
      '-ar',
      '8000',
      '-c:a',
      'pcm_mulaw',
      ulaw,
    ]);
  }
  return load16k(ulaw);
}

interface Hyp {
  start: number;
  end: number;
  speaker: number;
}

/** What transcribeFile does to a mono call, without the recogniser: VAD in 10 s blocks, split, cluster. */
async function diarize(
  samples: Float32Array,
): Promise<{ pieces: Hyp[]; regions: Hyp[]; separated: boolean; confidence: number }> {
  const tracker = new SpeechTracker();
  const diarizer = new Diarizer();
  const regions: Hyp[] = [];
  const pieces: { start: number; end: number }[] = [];
  const take = (chunks: { start: number; end: number; samples: Float32Array }[]) => {
    for (const c of chunks) {
      regions.push({ start: c.start, end: c.end, speaker: regions.length % 2 });
      pieces.push(...diarizer.split(c));
    }
  };
  const block = 10 * RATE;
  for (let at = 0; at < samples.length; at += block) take(await tracker.push(samples.slice(at, at + block)));
  take(await tracker.end());
  const result = diarizer.finish();
  return {
    pieces: pieces.map((p, i) => ({ ...p, speaker: result.labels[i]! })),
    regions,
    separated: result.separated,
    confidence: result.confidence,
  };
}

const STEP = 0.01;

/** Missed, false alarm and confusion seconds and the scored reference speech, best label mapping. */
function der(
  ref: Turn[],
  hyp: Hyp[],
  duration: number,
): { missed: number; falseAlarm: number; confusion: number; speech: number } {
  const n = Math.ceil(duration / STEP);
  const refAt = new Int8Array(n).fill(-1);
  const scored = new Uint8Array(n).fill(1);
  const hypAt = new Int8Array(n).fill(-1);
  for (const t of ref) {
    for (let i = Math.floor(t.start / STEP); i < Math.min(n, Math.ceil(t.end / STEP)); i++) refAt[i] = t.speaker;
    for (const edge of [t.start, t.end])
      for (
        let i = Math.max(0, Math.floor((edge - COLLAR) / STEP));
        i < Math.min(n, Math.ceil((edge + COLLAR) / STEP));
        i++
      )
        scored[i] = 0;
  }
  for (const h of hyp)
    for (let i = Math.floor(h.start / STEP); i < Math.min(n, Math.ceil(h.end / STEP)); i++) hypAt[i] = h.speaker;
  let best = { missed: 0, falseAlarm: 0, confusion: Number.POSITIVE_INFINITY, speech: 0 };
  for (const swap of [false, true]) {
    const r = { missed: 0, falseAlarm: 0, confusion: 0, speech: 0 };
    for (let i = 0; i < n; i++) {
      if (!scored[i]) continue;
      const rs = refAt[i]!;
      const hs = hypAt[i]! < 0 ? -1 : swap ? 1 - hypAt[i]! : hypAt[i]!;
      if (rs >= 0) r.speech += STEP;
      if (rs >= 0 && hs < 0) r.missed += STEP;
      else if (rs < 0 && hs >= 0) r.falseAlarm += STEP;
      else if (rs >= 0 && hs !== rs) r.confusion += STEP;
    }
    if (r.missed + r.falseAlarm + r.confusion < best.missed + best.falseAlarm + best.confusion) best = r;
  }
  return best;
}

async function clipsOf(spec: CallSpec): Promise<{ speaker: 0 | 1; samples: Float32Array }[]> {
  const out: { speaker: 0 | 1; samples: Float32Array }[] = [];
  for (let i = 0; i < spec.agentLines.length; i++) {
    out.push({ speaker: 0, samples: await espeak(spec.agentLines[i]!, spec.agent.espeak!) });
    if (spec.customerLines[i])
      out.push({
        speaker: spec.oneVoice ? 0 : 1,
        samples: await espeak(spec.customerLines[i]!, spec.customer.espeak!),
      });
  }
  return out;
}

/** Real voices: a LibriVox reader as the agent, the CMU command speakers as the customer. */
async function realCall(): Promise<(CallSpec & { clips: { speaker: 0 | 1; samples: Float32Array }[] }) | null> {
  const dir = '/usr/share/pocketsphinx/test/data';
  const cached = path.join(os.tmpdir(), 'escucha-bench-speech/usr/share/pocketsphinx/test/data');
  const base = existsSync(dir) ? dir : existsSync(cached) ? cached : null;
  if (!base) return null;
  const reader = [870, 880, 890, 920, 930].map((n) => `librivox/sense_and_sensibility_01_austen_64kb-0${n}.wav`);
  const commands = ['cards/001.wav', 'cards/003.wav', 'cards/004.wav', 'cards/002.wav', 'goforward.raw'];
  const clips: { speaker: 0 | 1; samples: Float32Array }[] = [];
  for (let i = 0; i < reader.length; i++) {
    clips.push({ speaker: 0, samples: await load16k(path.join(base, reader[i]!)) });
    clips.push({ speaker: 1, samples: await load16k(path.join(base, commands[i]!)) });
  }
  return {
    name: 'LibriVox reader / CMU commands',
    language: 'en (real)',
    agent: { name: 'real' },
    customer: { name: 'real' },
    agentLines: [],
    customerLines: [],
    clips,
  };
}

interface Row {
  language: string;
  call: string;
  condition: 'clean' | 'telephone';
  oneVoice: boolean;
  separated: boolean;
  confidence: number;
  der: number;
  missed: number;
  falseAlarm: number;
  confusion: number;
  baselineOne: number;
  baselineAlternate: number;
  seconds: number;
}

const rows: Row[] = [];
const specs: (CallSpec & { clips?: { speaker: 0 | 1; samples: Float32Array }[] })[] = [...CALLS];
const real = await realCall();
if (real) specs.splice(6, 0, real);
else note('pocketsphinx-testdata not found (run `npm run bench:asr` once to fetch it): real voices skipped');

for (const spec of specs) {
  const clips = spec.clips ?? (await clipsOf(spec));
  const { samples: clean, turns } = mix(clips);
  for (const condition of ['clean', 'telephone'] as const) {
    const samples = condition === 'clean' ? clean : await telephone(clean);
    const duration = samples.length / RATE;
    const started = performance.now();
    const result = await diarize(samples);
    const seconds = (performance.now() - started) / 1000;
    const hyp = result.separated ? result.pieces : result.pieces.map((p) => ({ ...p, speaker: 0 }));
    const d = der(turns, hyp, duration);
    const rate = (x: { missed: number; falseAlarm: number; confusion: number; speech: number }) =>
      (x.missed + x.falseAlarm + x.confusion) / x.speech;
    const one = der(
      turns,
      result.regions.map((r) => ({ ...r, speaker: 0 })),
      duration,
    );
    const alternate = der(turns, result.regions, duration);
    rows.push({
      language: spec.language,
      call: spec.name,
      condition,
      oneVoice: !!spec.oneVoice,
      separated: result.separated,
      confidence: result.confidence,
      der: rate(d),
      missed: d.missed / d.speech,
      falseAlarm: d.falseAlarm / d.speech,
      confusion: d.confusion / d.speech,
      baselineOne: rate(one),
      baselineAlternate: rate(alternate),
      seconds: seconds / duration,
    });
    note(
      `${spec.language.padEnd(9)} ${spec.name.padEnd(31)} ${condition.padEnd(9)} ` +
        `DER ${pct(rate(d))} (miss ${pct(d.missed / d.speech)} fa ${pct(d.falseAlarm / d.speech)} conf ${pct(d.confusion / d.speech)}) ` +
        `one ${pct(rate(one))} alt ${pct(rate(alternate))} separated ${result.separated ? 'yes' : 'no '} conf ${Math.round(result.confidence * 100)} %`,
    );
  }
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1).padStart(5)} %`;
}

const twoVoice = rows.filter((r) => !r.oneVoice);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const groups = [...new Set(twoVoice.map((r) => `${r.language}|${r.condition}`))].map((k) => {
  const [language, condition] = k.split('|') as [string, string];
  const rs = twoVoice.filter((r) => r.language === language && r.condition === condition);
  return {
    language,
    condition,
    calls: rs.length,
    der: mean(rs.map((r) => r.der)),
    baselineOne: mean(rs.map((r) => r.baselineOne)),
    baselineAlternate: mean(rs.map((r) => r.baselineAlternate)),
    separated: rs.filter((r) => r.separated).length,
  };
});
const single = rows.filter((r) => r.oneVoice);
const summary = {
  goal: `DER ≤ ${GOAL_DER * 100} % on two-voice calls; one-voice calls stay one speaker`,
  collarSeconds: COLLAR,
  groups,
  oneVoice: { calls: single.length, wronglySeparated: single.filter((r) => r.separated).length },
  realtimeFactor: mean(rows.map((r) => r.seconds)),
  overallDer: mean(twoVoice.map((r) => r.der)),
};

if (json) process.stdout.write(`${JSON.stringify({ summary, rows }, null, 2)}\n`);
else {
  const out = [
    '',
    `Diarization of mono calls — DER with a ${COLLAR} s collar (lower is better); goal: ${summary.goal}`,
    '',
    '| language | condition | calls | DER | baseline: one speaker | baseline: alternate per region | separated |',
    '|---|---|---|---|---|---|---|',
    ...groups.map(
      (g) =>
        `| ${g.language} | ${g.condition} | ${g.calls} | ${pct(g.der).trim()} | ${pct(g.baselineOne).trim()} | ${pct(g.baselineAlternate).trim()} | ${g.separated}/${g.calls} |`,
    ),
    '',
    `Overall DER ${pct(summary.overallDer).trim()}; one-voice calls wrongly split in two: ${summary.oneVoice.wronglySeparated}/${summary.oneVoice.calls}; ` +
      `diarization (VAD + features + clustering) runs at ${summary.realtimeFactor.toFixed(3)} × real time.`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

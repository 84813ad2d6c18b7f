// `node scripts/bench/asr-summary.ts [--lang en] [--rows 32] [--cache 20] [--frames 100] [--steps 60] [--rounds 5]`
//
// The cost of one batched later decoder step (the model StepBatcher runs: per-slot cross-attention and
// quantized products, the caches' last positions) with what beam search reads of the logits computed in
// JavaScript from the fetched logits (`logits + JS`: beam.ts's logSumExp and topK per row, as before
// stepSummaryOutputs) against computed in the graph and only that fetched (`summary`). The two take
// turns (`rounds`) so that the machine's load hits them alike; CPU is this process's (one intra-op thread,
// so the calling thread's) per step, wall the median step. Inputs are random with the real shapes.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import { stepRow } from '../../src/transcription/beam.ts';
import { sessionOptions } from '../../src/transcription/moonshine.ts';
import {
  lastPositionOutputs,
  STEP_SUMMARY,
  slotCrossAttention,
  slotQuantized,
  splitDecoder,
  stepSummaryOutputs,
} from '../../src/transcription/onnx-rewrite.ts';

const { values } = parseArgs({
  options: {
    lang: { type: 'string', default: 'en' },
    rows: { type: 'string', default: '32' },
    cache: { type: 'string', default: '20' },
    frames: { type: 'string', default: '100' },
    steps: { type: 'string', default: '60' },
    rounds: { type: 'string', default: '5' },
  },
});
const SLOTS = 8;
const [rows, cache, frames, steps, rounds] = [
  values.rows,
  values.cache,
  values.frames,
  values.steps,
  values.rounds,
].map(Number) as [number, number, number, number, number];
const MODELS = path.resolve(import.meta.dirname, '../../.data/models');
const file = path.join(process.env.MODELS_DIR ?? MODELS, `moonshine-base-${values.lang}`, 'decoder_model_merged.onnx');
const later = splitDecoder(readFileSync(file), { plainBranches: true })!.later;
const slotted = slotQuantized(slotCrossAttention(later, SLOTS)!, SLOTS)!;
const withLast = lastPositionOutputs(slotted.model)!;
const session = await ort.InferenceSession.create(stepSummaryOutputs(withLast)!, sessionOptions(1, true, true));
// The model as before stepSummaryOutputs, with the same weights (ONNX Runtime's own copy).
const plain = await ort.InferenceSession.create(withLast, sessionOptions(1, true, true));

let seed = 12345;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31 - 0.5;
};
const perSlot = Math.ceil(rows / SLOTS);
const feeds: Record<string, ort.Tensor> = {};
for (const m of session.inputMetadata) {
  if (!m.isTensor) continue;
  if (m.name === 'input_ids')
    feeds[m.name] = new ort.Tensor(
      'int64',
      BigInt64Array.from({ length: rows }, (_, i) => BigInt(300 + i)),
      [rows, 1],
    );
  else if (m.name === slotted.slotRows)
    feeds[m.name] = new ort.Tensor(
      'int64',
      BigInt64Array.from({ length: SLOTS }, (_, g) => BigInt(Math.max(0, Math.min(perSlot, rows - g * perSlot)))),
      [SLOTS],
    );
  else if (m.type === 'float32') {
    const dims = m.shape.map((d) => {
      if (typeof d === 'number') return d;
      if (/\/slot\d+$/.test(m.name)) return d.startsWith('encoder_frames') ? frames : 1;
      if (d === 'batch_size') return rows;
      if (d.startsWith('past_decoder')) return cache;
      throw new Error(`unknown dim ${d} of ${m.name}`);
    });
    feeds[m.name] = new ort.Tensor(
      'float32',
      Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, random),
      dims,
    );
  }
}
const ids = BigInt64Array.from({ length: rows }, () => 2n);
Object.assign(feeds, {
  [STEP_SUMMARY.topK]: new ort.Tensor('int64', BigInt64Array.of(5n), [1]),
  [STEP_SUMMARY.vocabLimit]: new ort.Tensor('int64', BigInt64Array.of(32000n), [1]),
  [STEP_SUMMARY.logitIds]: new ort.Tensor('int64', ids, [rows, 1]),
});
const lasts = session.outputNames.filter((n) => n.endsWith('/last'));
const plainFeeds = Object.fromEntries(Object.entries(feeds).filter(([k]) => plain.inputNames.includes(k)));
const variants = {
  'logits + JS': async () => {
    const out = await plain.run(plainFeeds, ['logits', ...lasts]);
    const data = out.logits!.data as Float32Array;
    const vocab = out.logits!.dims.at(-1)!;
    let sink = 0;
    for (let r = 0; r < rows; r++) sink += stepRow(data.subarray(r * vocab, (r + 1) * vocab), 5, 32000).norm;
    return sink;
  },
  'logits only': async () => {
    const out = await plain.run(plainFeeds, ['logits', ...lasts]);
    return (out.logits!.data as Float32Array)[0]!;
  },
  'no outputs': async () => {
    const out = await plain.run(plainFeeds, [...lasts]);
    return out[lasts[0]!]!.dims[0]!;
  },
  summary: async () => {
    const out = await session.run(feeds, [
      STEP_SUMMARY.logSumExp,
      STEP_SUMMARY.topValues,
      STEP_SUMMARY.topIds,
      STEP_SUMMARY.asked,
      ...lasts,
    ]);
    return (out[STEP_SUMMARY.logSumExp]!.data as Float64Array)[0]!;
  },
};
const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((n) => [n, []]));
const wall: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((n) => [n, []]));
for (let round = 0; round < rounds; round++)
  for (const [name, run] of Object.entries(variants)) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < steps; i++) {
      const t0 = performance.now();
      await run();
      wall[name]!.push(performance.now() - t0);
    }
    const c = process.cpuUsage(c0);
    cpu[name]!.push((c.user + c.system) / 1000 / steps);
  }
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  `${values.lang}, ${rows} rows, cache ${cache}, ${frames} frames, load average ${os.loadavg()[0]!.toFixed(1)}`,
);
for (const name of Object.keys(variants))
  console.log(
    `${name.padEnd(12)} CPU ms per step: median ${median(cpu[name]!).toFixed(2)} (rounds ${cpu[name]!.map((x) => x.toFixed(2)).join(', ')}); wall median ${median(wall[name]!).toFixed(2)}`,
  );

// `node scripts/bench/asr-batch.ts [--lang en] [--steps 300] [--rounds 6] [--frames 300] [--cache 20]`
//
// Issue 30.1, "is batching decoder steps across chunks worth it?": the cost of one later decoder step (the
// later-step model recognition runs, src/transcription/onnx-rewrite.ts' splitDecoder) for
//   - batch 4 (one chunk's beams) on a session with one intra-op thread (today, per recognition thread);
//   - batch 8 (two chunks' beams) on one intra-op thread, on two; batch 16 (four chunks) on one;
//   - the same with the activations quantized per chunk (groupQuantized: what batching needs to keep the
//     words), batch 4 as one group and batch 8 as two;
//   - the same with each chunk's quantized products run on its own rows (slotQuantized), 2 and 4 slots;
//   - two sessions of batch 4 stepping at the same time in two worker threads (today's design on 2 cores).
// All at the same self-attention cache length and number of encoder frames (the graph takes the position
// from the cache length and has no mask, so only such chunks can share a batch as it is). Inputs are
// random with the real shapes: a step's cost does not depend on the values. Batched steps feed their
// cross-attention keys and values one row per hypothesis, batch 4 one row broadcast, as recognition does.
// The configurations take turns (`rounds`) so that a change in the machine's load hits them alike; wall
// time is the median step, CPU time the process's over all steps (the two threads' together for the last).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';
import { groupQuantized, slotQuantized, splitDecoder } from '../../src/transcription/onnx-rewrite.ts';
import { alignerSessionOptions } from '../../src/transcription/align.ts';

interface Config {
  lang: string;
  steps: number;
  frames: number;
  cache: number;
}

const MODELS = path.resolve(import.meta.dirname, '../../.data/models');

function laterModel(lang: string): Uint8Array {
  const file = path.join(process.env.MODELS_DIR ?? MODELS, `moonshine-base-${lang}`, 'decoder_model_merged.onnx');
  return splitDecoder(readFileSync(file), { plainBranches: true })!.later;
}

function session(model: Uint8Array, threads: number) {
  // As recognition creates its sessions (the aligner's options are recognition's, see align.ts).
  return ort.InferenceSession.create(model, alignerSessionOptions(threads));
}

/** Random inputs of one later step: `rows` hypotheses, cross-attention with `crossRows` rows. */
function feeds(s: ort.InferenceSession, rows: number, crossRows: number, c: Config): Record<string, ort.Tensor> {
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31 - 0.5;
  };
  const out: Record<string, ort.Tensor> = {};
  for (const m of s.inputMetadata) {
    if (!m.isTensor || m.name.startsWith('quant_')) continue;
    if (m.name === 'input_ids') {
      out[m.name] = new ort.Tensor(
        'int64',
        BigInt64Array.from({ length: rows }, (_, i) => BigInt(300 + i)),
        [rows, 1],
      );
      continue;
    }
    const dims = m.shape.map((d) => {
      if (typeof d === 'number') return d;
      if (d === 'batch_size') return /\.encoder\./.test(m.name) ? crossRows : rows;
      if (d === 'cross_batch') return crossRows;
      if (d.startsWith('past_decoder')) return c.cache;
      if (d.startsWith('encoder_sequence')) return c.frames;
      throw new Error(`unknown dim ${d} of ${m.name}`);
    });
    const data = Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, random);
    out[m.name] = new ort.Tensor('float32', data, dims);
  }
  return out;
}

/** Runs `f` through `s` `n` times; per-run wall milliseconds. */
async function steps(s: ort.InferenceSession, f: Record<string, ort.Tensor>, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await s.run(f, ['logits']);
    times.push(performance.now() - t);
  }
  return times;
}

/** A recognition thread: its own session of batch 4; runs the steps it is asked for, at once. */
async function worker() {
  const c = workerData as Config;
  const s = await session(laterModel(c.lang), 1);
  const f = feeds(s, 4, 1, c);
  await steps(s, f, 20);
  parentPort!.on('message', async (n: number) => parentPort!.postMessage(await steps(s, f, n)));
  parentPort!.postMessage('ready');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

async function main() {
  const { values } = parseArgs({
    options: {
      lang: { type: 'string', default: 'en' },
      steps: { type: 'string', default: '300' },
      rounds: { type: 'string', default: '6' },
      frames: { type: 'string', default: '300' },
      cache: { type: 'string', default: '20' },
    },
  });
  const c: Config = {
    lang: values.lang!,
    steps: Number(values.steps),
    frames: Number(values.frames),
    cache: Number(values.cache),
  };
  const rounds = Number(values.rounds);
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  console.log(
    `${c.lang}: later decoder step, cache ${c.cache} tokens, ${c.frames} encoder frames, ${c.steps} steps per ` +
      `configuration in ${rounds} interleaved rounds; load average ${load()} on ${os.availableParallelism()} cores`,
  );
  const model = laterModel(c.lang);
  const grouped = groupQuantized(model)!;
  interface Run {
    label: string;
    rows: number;
    /** Runs n steps; each step's wall milliseconds. */
    run: (n: number) => Promise<number[]>;
    wall: number[];
    cpu: number;
  }
  const runs: Run[] = [];
  const slotModels = new Map([2, 4].map((n) => [n, slotQuantized(model, n)!]));
  for (const [label, batch, threads, kind] of [
    ['batch 4 (one chunk), 1 intra-op thread', 4, 1, 'shipped'],
    ['batch 8 (two chunks), 1 intra-op thread', 8, 1, 'shipped'],
    ['batch 8 (two chunks), 2 intra-op threads', 8, 2, 'shipped'],
    ['batch 16 (four chunks), 1 intra-op thread', 16, 1, 'shipped'],
    ['per-group quantization: batch 4 (one group), 1 intra-op thread', 4, 1, 'grouped'],
    ['per-group quantization: batch 8 (two groups), 1 intra-op thread', 8, 1, 'grouped'],
    ['2 slots: batch 4 (one chunk, one slot empty), 1 intra-op thread', 4, 1, 2],
    ['2 slots: batch 8 (two chunks), 1 intra-op thread', 8, 1, 2],
    ['4 slots: batch 16 (four chunks), 1 intra-op thread', 16, 1, 4],
  ] as const) {
    const slots = typeof kind === 'number' ? slotModels.get(kind)! : null;
    const s = await session(slots?.model ?? (kind === 'grouped' ? grouped.model : model), threads);
    const f = feeds(s, batch, batch === 4 ? 1 : batch, c);
    if (slots) {
      const rows = Array.from({ length: kind as number }, (_, i) => BigInt(Math.max(0, Math.min(4, batch - 4 * i))));
      f[slots.slotRows] = new ort.Tensor('int64', BigInt64Array.from(rows), [rows.length]);
    }
    if (kind === 'grouped') {
      const groups = batch / 4;
      const mask = Uint8Array.from({ length: groups * batch }, (_, i) =>
        Number(Math.floor((i % batch) / 4) === Math.floor(i / batch)),
      );
      f[grouped.groupMask] = new ort.Tensor('bool', mask, [groups, batch]);
      f[grouped.rowGroup] = new ort.Tensor(
        'int64',
        BigInt64Array.from({ length: batch }, (_, i) => BigInt(i >> 2)),
        [batch],
      );
    }
    await steps(s, f, 20);
    runs.push({ label, rows: batch, run: (n) => steps(s, f, n), wall: [], cpu: 0 });
  }
  // Two recognition threads, each stepping its own chunk's four beams at the same time (today's design).
  const workers = [0, 1].map(() => new Worker(new URL(import.meta.url), { workerData: c }));
  await Promise.all(workers.map((w) => new Promise((resolve) => w.once('message', resolve))));
  runs.push({
    label: '2 × batch 4 in two threads at once (1 intra-op thread each)',
    rows: 8,
    run: async (n) => {
      const t = performance.now();
      const done = workers.map((w) => new Promise<number[]>((resolve) => w.once('message', resolve)));
      for (const w of workers) w.postMessage(n);
      await Promise.all(done);
      // Both threads advance four rows per step: the wall time per step of the pair.
      return new Array(n).fill((performance.now() - t) / n);
    },
    wall: [],
    cpu: 0,
  });
  const perRound = Math.ceil(c.steps / rounds);
  for (let r = 0; r < rounds; r++)
    for (const run of runs) {
      const cpu = process.cpuUsage();
      run.wall.push(...(await run.run(perRound)));
      const used = process.cpuUsage(cpu);
      run.cpu += (used.user + used.system) / 1000;
    }
  for (const w of workers) await w.terminate();
  console.log('| Configuration | wall ms per step (median) | wall ms per 8 rows | CPU ms per 8 rows |');
  console.log('|---|---:|---:|---:|');
  for (const run of runs) {
    const wall = median(run.wall);
    const cpu = run.cpu / (perRound * rounds);
    const per8 = 8 / run.rows;
    console.log(`| ${run.label} | ${wall.toFixed(2)} | ${(wall * per8).toFixed(2)} | ${(cpu * per8).toFixed(2)} |`);
  }
  console.log(`load average after: ${load()}`);
}

if (isMainThread) await main();
else await worker();

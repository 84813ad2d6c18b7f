// `node scripts/bench/asr-batch-exact.ts [--lang en|es]`
//
// Issue 30.1, step 2: is the decoder with its activations quantized per group of rows
// (src/transcription/onnx-rewrite.ts groupQuantized) bit for bit the decoder recognition runs?
// Real chunks (LibriVox read speech for English, espeak-ng lines for Spanish), cut in pairs to the same
// length (the graph has no attention mask: chunks in one batch need the same number of encoder frames),
// are beam-searched (width 4, as recognition) with the later-step model as shipped; at every step the
// same inputs also go through the rewritten model
//   - alone: the chunk's rows as one group (its cross-attention one row, broadcast, as recognition feeds it);
//   - batched: both chunks of the pair in one batch, one group each (cross-attention one row per hypothesis);
// (with --slots, the quantized products run per slot of rows instead: slotQuantized, two slots);
// and the logits and self-attention caches are compared with the shipped model's, bit for bit.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import { beamSearch, type DecoderStep } from '../../src/transcription/beam.ts';
import {
  crossAttentionMasked,
  crossAttentionModel,
  groupQuantized,
  slotCrossAttention,
  slotQuantized,
  splitDecoder,
} from '../../src/transcription/onnx-rewrite.ts';
import { readSpeechDir } from '../../test/fixtures/read-speech.ts';

const { values } = parseArgs({
  options: {
    lang: { type: 'string', default: 'en' },
    'same-length': { type: 'boolean', default: false },
    slots: { type: 'boolean', default: false },
  },
});
const lang = values.lang!;
const MODELS = process.env.MODELS_DIR ?? path.resolve(import.meta.dirname, '../../.data/models');
const dir = path.join(MODELS, `moonshine-base-${lang}`);
const RATE = 16000;

const options: ort.InferenceSession.SessionOptions = {
  graphOptimizationLevel: 'all',
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  extra: { session: { disable_quant_qdq: '1' } },
  enableCpuMemArena: false,
};

const split = splitDecoder(readFileSync(path.join(dir, 'decoder_model_merged.onnx')), { plainBranches: true })!;
const masked = crossAttentionMasked(split.later);
if (!masked) throw new Error('crossAttentionMasked: the later-step model has not the expected shape');
// Per group of rows (groupQuantized), or with --slots per slot of rows (slotQuantized, two slots).
const grouped = values.slots ? null : groupQuantized(masked.model);
// With --slots on the English graph, the cross-attention runs per slot too (no padding, no mask).
const crossSlots = values.slots ? slotCrossAttention(split.later, 2) : null;
const slotted = values.slots ? slotQuantized(crossSlots ?? masked.model, 2) : null;
if (!grouped && !slotted) throw new Error('the later-step model has not the expected shape');
const [encoder, later, rewritten] = await Promise.all([
  ort.InferenceSession.create(path.join(dir, 'encoder_model.onnx'), options),
  ort.InferenceSession.create(split.later, options),
  ort.InferenceSession.create((grouped ?? slotted)!.model, options),
]);
const present = (past: string) => past.replace('past_key_values', 'present');
const crossInputs = later.inputNames
  .filter((n) => /^past_key_values\.\d+\.encoder\./.test(n))
  .map((input) => ({ input, output: split.crossKeys.find((k) => k.input === input)?.output ?? present(input) }));
const cross = await ort.InferenceSession.create(
  crossAttentionModel(
    split.first,
    crossInputs.map((c) => c.output),
  ),
  options,
);
/** Per cross-attention input, the axis of the encoder's frames. */
const framesAxis = new Map(
  crossInputs.map(({ input }) => {
    const meta = later.inputMetadata.find((m) => m.name === input)!;
    return [input, (meta.isTensor ? meta.shape : []).findIndex((d) => d === 'encoder_sequence_length_out')];
  }),
);
const selfNames = later.inputNames.filter((n) => /^past_key_values\.\d+\.decoder\./.test(n));
const selfMeta = later.inputMetadata.find((m) => m.name === selfNames[0])!;
const selfShape = selfMeta.isTensor ? selfMeta.shape : [];
const [heads, headDim] = [Number(selfShape[1]), Number(selfShape[3])];
const fetches = ['logits', ...selfNames.map(present)];

/** Audio samples of the test chunks, mono 16 kHz float. */
async function chunks(): Promise<Float32Array[]> {
  const decode = (file: string) => {
    const raw = execFileSync(
      'ffmpeg',
      ['-nostdin', '-v', 'error', '-i', file, '-f', 'f32le', '-ac', '1', '-ar', `${RATE}`, '-'],
      {
        maxBuffer: 1 << 28,
      },
    );
    return new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4).slice();
  };
  if (lang === 'en') {
    const source = await readSpeechDir();
    if (!source) throw new Error('pocketsphinx-testdata is needed (apt-get download pocketsphinx-testdata)');
    return ['0870', '0880', '0890', '0920', '0930'].map((n) =>
      decode(path.join(source, `librivox/sense_and_sensibility_01_austen_64kb-${n}.wav`)),
    );
  }
  const lines = [
    'Buenos días, gracias por llamar al servicio de atención al cliente, ¿en qué puedo ayudarle?',
    'Mi factura de este mes tiene un cargo que no reconozco.',
    'Le confirmo que el reembolso se hará en un plazo de cinco días hábiles.',
    'Necesito cambiar la dirección de envío de mi pedido.',
    'Muchas gracias, que tenga un buen día.',
  ];
  return lines.map((line, i) => {
    const file = path.join(os.tmpdir(), `asr-batch-exact-${i}.wav`);
    execFileSync('espeak-ng', ['-v', 'es', '-w', file, line]);
    return decode(file);
  });
}

interface Chunk {
  name: string;
  /** Encoder frames. */
  frames: number;
  cross: Record<string, ort.Tensor>;
  self: Record<string, ort.Tensor>;
}

async function encode(name: string, samples: Float32Array): Promise<Chunk> {
  const { last_hidden_state: hidden } = await encoder.run({
    input_values: new ort.Tensor('float32', samples, [1, samples.length]),
  });
  const ids = new ort.Tensor('int64', BigInt64Array.of(1n), [1, 1]);
  const out = await cross.run({
    ...(cross.inputNames.includes('input_ids') ? { input_ids: ids } : {}),
    encoder_hidden_states: hidden!,
  });
  return {
    name,
    frames: hidden!.dims[1]!,
    cross: Object.fromEntries(crossInputs.map((c) => [c.input, out[c.output]!])),
    self: {},
  };
}

/** Rows of `t` (batch first) in the order `rows` names. */
function rowsOf(t: ort.Tensor, rows: readonly number[]): ort.Tensor {
  const src = t.data as Float32Array;
  const size = src.length / t.dims[0]!;
  const data = new Float32Array(size * rows.length);
  for (const [i, r] of rows.entries()) data.set(src.subarray(r * size, (r + 1) * size), i * size);
  return new ort.Tensor('float32', data, [rows.length, ...t.dims.slice(1)]);
}

/** `t` with zeros after its own frames up to `frames` along `axis`. */
function padFrames(t: ort.Tensor, axis: number, frames: number): ort.Tensor {
  const dims = [...t.dims];
  if (dims[axis] === frames) return t;
  const outer = dims.slice(0, axis).reduce((a, b) => a * b, 1);
  const inner = dims.slice(axis + 1).reduce((a, b) => a * b, 1);
  const src = t.data as Float32Array;
  const data = new Float32Array(outer * frames * inner);
  for (let o = 0; o < outer; o++)
    data.set(src.subarray(o * dims[axis]! * inner, (o + 1) * dims[axis]! * inner), o * frames * inner);
  dims[axis] = frames;
  return new ort.Tensor('float32', data, dims);
}

/** The cross-attention mask of rows whose chunks have `frames[i]` frames of `longest`, `sizes[i]` rows each. */
function frameMask(sizes: number[], frames: number[], longest: number): Record<string, ort.Tensor> {
  const rows = sizes.reduce((a, b) => a + b, 0);
  const data = new Float32Array(rows * longest);
  let at = 0;
  sizes.forEach((n, i) => {
    for (let r = at; r < at + n; r++) data.fill(Number.NEGATIVE_INFINITY, r * longest + frames[i]!, (r + 1) * longest);
    at += n;
  });
  return { [masked!.mask]: new ort.Tensor('float32', data, [rows, 1, 1, longest]) };
}

/** Each chunk's own cross-attention inputs in its slot (slotCrossAttention); a slot left empty gets no rows. */
function slotCross(cs: Chunk[]): Record<string, ort.Tensor> {
  const empty = (t: ort.Tensor) => new ort.Tensor('float32', new Float32Array(0), [0, ...t.dims.slice(1)]);
  return Object.fromEntries(
    crossInputs.flatMap(({ input }) =>
      [0, 1].map((g) => [`${input}/slot${g}`, cs[g]?.cross[input] ?? empty(cs[0]!.cross[input]!)]),
    ),
  );
}

/** Tensors (batch first) one after the other along the batch. */
function concat(ts: ort.Tensor[]): ort.Tensor {
  const data = new Float32Array(ts.reduce((a, t) => a + t.data.length, 0));
  let at = 0;
  for (const t of ts) {
    data.set(t.data as Float32Array, at);
    at += t.data.length;
  }
  return new ort.Tensor('float32', data, [ts.reduce((a, t) => a + t.dims[0]!, 0), ...ts[0]!.dims.slice(1)]);
}

const groupInputs = (sizes: number[]): Record<string, ort.Tensor> => {
  if (slotted) {
    const rows = [...sizes, 0].slice(0, 2).map(BigInt);
    return { [slotted.slotRows]: new ort.Tensor('int64', BigInt64Array.from(rows), [2]) };
  }
  if (!grouped) throw new Error('unreachable');
  const rows = sizes.reduce((a, b) => a + b, 0);
  const mask = new Uint8Array(sizes.length * rows);
  const group = new BigInt64Array(rows);
  let at = 0;
  sizes.forEach((n, g) => {
    for (let r = at; r < at + n; r++) {
      mask[g * rows + r] = 1;
      group[r] = BigInt(g);
    }
    at += n;
  });
  return {
    [grouped.groupMask]: new ort.Tensor('bool', mask, [sizes.length, rows]),
    [grouped.rowGroup]: new ort.Tensor('int64', group, [rows]),
  };
};

/** The comparison so far: steps, steps with any difference, the largest absolute difference. */
const tally = {
  alone: { steps: 0, differing: 0, largest: 0 },
  batched: { steps: 0, differing: 0, largest: 0 },
  control: { steps: 0, differing: 0, largest: 0 },
};

function compare(kind: 'alone' | 'batched', a: Float32Array, b: Float32Array) {
  let largest = 0;
  let differs = a.length !== b.length;
  for (let i = 0; i < a.length && !differs; i++) if (Object.is(a[i], b[i]) === false) differs = true;
  for (let i = 0; i < a.length; i++) largest = Math.max(largest, Math.abs(a[i]! - b[i]!));
  return { differs, largest, kind };
}

/**
 * The decoder step of each chunk of a pair: a step runs once both live chunks asked for theirs (they
 * advance together, so the caches have the same length), as shipped per chunk (what the search goes by)
 * and through the rewritten model alone and batched.
 */
function pairSteps(chunks: Chunk[]): { steps: DecoderStep[]; done: (i: number) => void } {
  type Request = {
    tokens: readonly number[];
    parents: readonly number[] | null;
    resolve: (rows: Float32Array[]) => void;
  };
  const pending = new Map<number, Request>();
  const live = new Set(chunks.keys());
  const runIfReady = () => {
    if (!live.size || [...live].some((i) => !pending.has(i))) return;
    const order = [...live];
    const requests = order.map((i) => pending.get(i)!);
    pending.clear();
    void stepAll(
      order.map((i) => chunks[i]!),
      requests,
    ).catch((e) => {
      console.error(e);
      process.exit(1);
    });
  };
  const stepAll = async (cs: Chunk[], rs: Request[]) => {
    const inputsOf = (c: Chunk, r: Request) => {
      const n = r.tokens.length;
      const self = r.parents
        ? Object.fromEntries(selfNames.map((k) => [k, rowsOf(c.self[k]!, r.parents!)]))
        : Object.fromEntries(
            selfNames.map((k) => [k, new ort.Tensor('float32', new Float32Array(0), [n, heads, 0, headDim])]),
          );
      const ids = new ort.Tensor('int64', BigInt64Array.from(r.tokens, BigInt), [n, 1]);
      return { input_ids: ids, ...self } as Record<string, ort.Tensor>;
    };
    const inputs = cs.map((c, i) => inputsOf(c, rs[i]!));
    const shipped = await Promise.all(cs.map((c, i) => later.run({ ...inputs[i]!, ...c.cross }, fetches)));
    const note = (kind: 'alone' | 'batched', results: ReturnType<typeof compare>[]) => {
      tally[kind].steps++;
      if (results.some((r) => r.differs)) tally[kind].differing++;
      tally[kind].largest = Math.max(tally[kind].largest, ...results.map((r) => r.largest));
    };
    // Alone, one group.
    for (const [i, c] of cs.entries()) {
      const n = rs[i]!.tokens.length;
      const cross = crossSlots ? slotCross([c]) : { ...c.cross, ...frameMask([n], [c.frames], c.frames) };
      const out = await rewritten.run({ ...inputs[i]!, ...cross, ...groupInputs([n]) }, fetches);
      note(
        'alone',
        fetches.map((f) => compare('alone', shipped[i]![f]!.data as Float32Array, out[f]!.data as Float32Array)),
      );
    }
    // Batched, one group per chunk.
    if (cs.length > 1) {
      const sizes = rs.map((r) => r.tokens.length);
      const longest = Math.max(...cs.map((c) => c.frames));
      const batchedInputs = {
        ...(crossSlots
          ? {}
          : frameMask(
              sizes,
              cs.map((c) => c.frames),
              longest,
            )),
        input_ids: new ort.Tensor(
          'int64',
          BigInt64Array.from(
            rs.flatMap((r) => r.tokens),
            BigInt,
          ),
          [sizes.reduce((a, b) => a + b), 1],
        ),
        ...Object.fromEntries(selfNames.map((k) => [k, concat(inputs.map((x) => x[k]!))])),
        ...(crossSlots ? slotCross(cs) : {}),
        ...Object.fromEntries(
          (crossSlots ? [] : crossInputs).map(({ input }) => [
            input,
            concat(
              cs.map((c, i) =>
                rowsOf(padFrames(c.cross[input]!, framesAxis.get(input)!, longest), new Array(sizes[i]!).fill(0)),
              ),
            ),
          ]),
        ),
      };
      const batched = await rewritten.run({ ...batchedInputs, ...groupInputs(sizes) }, fetches);
      // The control: the same batch quantized as one group, as the shipped graph would.
      // (With the cross-attention per slot, one slot would attend to one chunk's frames: the control is the
      // batch with the slots swapped over, each chunk's rows on the other's frames.)
      const control = crossSlots ? { ...batchedInputs, ...slotCross([...cs].reverse()) } : batchedInputs;
      const together = await rewritten.run(
        { ...control, ...groupInputs(crossSlots ? sizes : [sizes.reduce((a, b) => a + b)]) },
        ['logits'],
      );
      let at = 0;
      const results: ReturnType<typeof compare>[] = [];
      const controls: ReturnType<typeof compare>[] = [];
      for (const [i, n] of sizes.entries()) {
        for (const f of fetches) {
          const per = batched[f]!.data.length / sizes.reduce((a, b) => a + b);
          const mine = (batched[f]!.data as Float32Array).subarray(at * per, (at + n) * per);
          results.push(compare('batched', shipped[i]![f]!.data as Float32Array, mine));
        }
        const per = together.logits!.data.length / sizes.reduce((a, b) => a + b);
        const mixed = (together.logits!.data as Float32Array).subarray(at * per, (at + n) * per);
        controls.push(compare('batched', shipped[i]!.logits!.data as Float32Array, mixed));
        at += n;
      }
      note('batched', results);
      tally.control.steps++;
      if (controls.some((r) => r.differs)) tally.control.differing++;
      tally.control.largest = Math.max(tally.control.largest, ...controls.map((r) => r.largest));
    }
    for (const [i, c] of cs.entries()) {
      c.self = Object.fromEntries(selfNames.map((k) => [k, shipped[i]![present(k)]!]));
      const logits = shipped[i]!.logits!;
      const vocab = logits.dims.at(-1)!;
      const data = logits.data as Float32Array;
      rs[i]!.resolve(Array.from({ length: rs[i]!.tokens.length }, (_, r) => data.subarray(r * vocab, (r + 1) * vocab)));
    }
  };
  return {
    steps: chunks.map(
      (_, i): DecoderStep =>
        (tokens, parents) =>
          new Promise((resolve) => {
            pending.set(i, { tokens, parents, resolve });
            runIfReady();
          }),
    ),
    done: (i) => {
      live.delete(i);
      runIfReady();
    },
  };
}

const audio = await chunks();
const pairs: [number, number][] = [
  [0, 1],
  [2, 3],
  [0, 3],
  [4, 2],
];
console.log(
  `${lang}: later decoder step as shipped vs per-${values.slots ? 'slot' : 'group'} quantization; load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const [a, b] of pairs) {
  // Each chunk whole (different numbers of frames, padded and masked when batched), or both cut to the shorter.
  const length = (i: number) =>
    values['same-length'] ? Math.min(audio[a]!.length, audio[b]!.length) : audio[i]!.length;
  const cs = await Promise.all([a, b].map((i) => encode(`#${i}`, audio[i]!.slice(0, length(i)))));
  const { steps, done } = pairSteps(cs);
  const decoded = await Promise.all(
    steps.map((step, i) =>
      beamSearch(step, {
        width: 4,
        maxTokens: Math.max(8, Math.ceil((length([a, b][i]!) / RATE) * 7)),
        start: 1,
        eos: 2,
        vocabSize: 32000,
        bias: null,
      }).finally(() => done(i)),
    ),
  );
  console.log(
    `pair #${a} + #${b}, ${cs.map((c) => c.frames).join(' + ')} frames (running totals): ${decoded.map((d) => d.tokens.length).join(' + ')} tokens; ` +
      `alone ${tally.alone.differing}/${tally.alone.steps} chunk-steps differ (largest ${tally.alone.largest}), ` +
      `batched ${tally.batched.differing}/${tally.batched.steps} steps differ (largest ${tally.batched.largest}); ` +
      `control (${crossSlots ? 'slots swapped' : 'batched, one group'}) ${tally.control.differing}/${tally.control.steps} differ (largest ${tally.control.largest.toFixed(3)})`,
  );
}
const exact = tally.alone.differing === 0 && tally.batched.differing === 0;
console.log(`bit for bit: ${exact ? 'yes' : 'no'}`);
process.exitCode = exact ? 0 : 1;

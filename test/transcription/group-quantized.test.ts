// Issue 30.1: the decoder's later step with its activations quantized per group of rows (one group = one
// chunk's hypotheses), or with its quantized products run per slot of rows, computes bit for bit what the graph as shipped computes for each chunk alone, so
// chunks could share a decoder step without changing their words; the graph as shipped, given the same
// batch, does not (its one scale over every row moves the logits).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { resolveModelsDir } from '../../src/transcription/index.ts';
import {
  groupQuantized,
  slotCrossAttention,
  slotQuantized,
  splitDecoder,
} from '../../src/transcription/onnx-rewrite.ts';

const modelsDir = resolveModelsDir();
const options: ort.InferenceSession.SessionOptions = {
  graphOptimizationLevel: 'all',
  intraOpNumThreads: 1,
  executionMode: 'sequential',
  extra: { session: { disable_quant_qdq: '1' } },
};

/** One chunk's later-step inputs: `rows` hypotheses, random values (a fixed seed per chunk). */
function chunkInputs(session: ort.InferenceSession, rows: number, seed: number, frames = 40) {
  let s = seed;
  const random = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31 - 0.5;
  };
  const feeds: Record<string, ort.Tensor> = {};
  for (const m of session.inputMetadata) {
    if (!m.isTensor || m.name.startsWith('quant_')) continue;
    if (m.name === 'input_ids') {
      feeds[m.name] = new ort.Tensor(
        'int64',
        BigInt64Array.from({ length: rows }, () => BigInt(300 + Math.floor((random() + 0.5) * 20000))),
        [rows, 1],
      );
      continue;
    }
    const cross = /\.encoder\./.test(m.name);
    const dims = m.shape.map((d) =>
      typeof d === 'number'
        ? d
        : cross && /batch/.test(d)
          ? 1
          : /batch/.test(d)
            ? rows
            : /past_decoder/.test(d)
              ? 3
              : frames,
    );
    feeds[m.name] = new ort.Tensor(
      'float32',
      Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, random),
      dims,
    );
  }
  return feeds;
}

/** Each chunk's inputs one after the other along the batch (cross-attention one row per hypothesis). */
function batch(chunks: Record<string, ort.Tensor>[], sizes: number[]): Record<string, ort.Tensor> {
  const out: Record<string, ort.Tensor> = {};
  for (const name of Object.keys(chunks[0]!)) {
    const parts = chunks.map((c, i) => {
      const t = c[name]!;
      if (t.dims[0] === sizes[i]) return t.data as Float32Array | BigInt64Array;
      const row = t.data as Float32Array;
      const tiled = new Float32Array(row.length * sizes[i]!);
      for (let r = 0; r < sizes[i]!; r++) tiled.set(row, r * row.length);
      return tiled;
    });
    const rows = sizes.reduce((a, b) => a + b, 0);
    const first = chunks[0]![name]!;
    const data =
      first.type === 'int64'
        ? BigInt64Array.from(parts.flatMap((p) => [...(p as BigInt64Array)]))
        : Float32Array.from(parts.flatMap((p) => [...(p as Float32Array)]));
    out[name] = new ort.Tensor(first.type as 'float32', data as Float32Array, [rows, ...first.dims.slice(1)]);
  }
  return out;
}

function groups(names: { groupMask: string; rowGroup: string }, sizes: number[]): Record<string, ort.Tensor> {
  const rows = sizes.reduce((a, b) => a + b, 0);
  const mask = new Uint8Array(sizes.length * rows);
  const group = new BigInt64Array(rows);
  let at = 0;
  for (const [g, n] of sizes.entries()) {
    for (let r = at; r < at + n; r++) {
      mask[g * rows + r] = 1;
      group[r] = BigInt(g);
    }
    at += n;
  }
  return {
    [names.groupMask]: new ort.Tensor('bool', mask, [sizes.length, rows]),
    [names.rowGroup]: new ort.Tensor('int64', group, [rows]),
  };
}

const rowsOf = (t: ort.Tensor, from: number, to: number) => {
  const per = t.data.length / t.dims[0]!;
  return Array.from((t.data as Float32Array).subarray(from * per, to * per));
};

describe.each(['en', 'es'])('the %s decoder quantized per chunk', (lang) => {
  it('gives each chunk of a batch the logits and caches the shipped graph gives it alone, bit for bit', async () => {
    const later = splitDecoder(
      readFileSync(path.join(modelsDir, `moonshine-base-${lang}`, 'decoder_model_merged.onnx')),
      {
        plainBranches: true,
      },
    )!.later;
    const grouped = groupQuantized(later)!;
    const [shipped, rewritten] = await Promise.all([
      ort.InferenceSession.create(later, options),
      ort.InferenceSession.create(grouped.model, options),
    ]);
    const fetches = shipped.outputNames;
    const sizes = [4, 3];
    const chunks = sizes.map((n, i) => chunkInputs(shipped, n, 7 + i));
    const alone = await Promise.all(chunks.map((c) => shipped.run(c, fetches)));

    // One chunk, one group: what the shipped graph computes.
    const single = await rewritten.run({ ...chunks[0]!, ...groups(grouped, [4]) }, fetches);
    for (const f of fetches)
      expect(Array.from(single[f]!.data as Float32Array)).toEqual(Array.from(alone[0]![f]!.data as Float32Array));

    // Two chunks in one batch, a group each: each chunk's rows as alone.
    const both = batch(chunks, sizes);
    const together = await rewritten.run({ ...both, ...groups(grouped, sizes) }, fetches);
    for (const f of fetches) {
      expect(rowsOf(together[f]!, 0, 4)).toEqual(Array.from(alone[0]![f]!.data as Float32Array));
      expect(rowsOf(together[f]!, 4, 7)).toEqual(Array.from(alone[1]![f]!.data as Float32Array));
    }
    // The shipped graph on the same batch moves the first chunk's logits (one scale for all rows).
    const mixed = await shipped.run(both, ['logits']);
    expect(rowsOf(mixed.logits!, 0, 4)).not.toEqual(Array.from(alone[0]!.logits!.data as Float32Array));

    // The products run per slot of rows (slotQuantized): the same, and one chunk with a slot left empty.
    const slotted = slotQuantized(later, 2)!;
    const slots = await ort.InferenceSession.create(slotted.model, options);
    const slotRows = (rows: number[]) => ({
      [slotted.slotRows]: new ort.Tensor('int64', BigInt64Array.from(rows, BigInt), [2]),
    });
    const perSlot = await slots.run({ ...both, ...slotRows(sizes) }, fetches);
    const lone = await slots.run({ ...chunks[0]!, ...slotRows([4, 0]) }, fetches);
    for (const f of fetches) {
      expect(rowsOf(perSlot[f]!, 0, 4)).toEqual(Array.from(alone[0]![f]!.data as Float32Array));
      expect(rowsOf(perSlot[f]!, 4, 7)).toEqual(Array.from(alone[1]![f]!.data as Float32Array));
      expect(Array.from(lone[f]!.data as Float32Array)).toEqual(Array.from(alone[0]![f]!.data as Float32Array));
    }
    await Promise.all([shipped.release(), rewritten.release(), slots.release()]);
  }, 120_000);
});

describe('the en decoder with its cross-attention per slot', () => {
  it('steps chunks with different numbers of encoder frames together, each bit for bit as alone', async () => {
    const later = splitDecoder(readFileSync(path.join(modelsDir, 'moonshine-base-en', 'decoder_model_merged.onnx')), {
      plainBranches: true,
    })!.later;
    const slotted = slotQuantized(slotCrossAttention(later, 2)!, 2)!;
    const [shipped, slots] = await Promise.all([
      ort.InferenceSession.create(later, options),
      ort.InferenceSession.create(slotted.model, options),
    ]);
    const fetches = shipped.outputNames;
    const [a, b] = [chunkInputs(shipped, 4, 11, 123), chunkInputs(shipped, 3, 12, 94)];
    const alone = await Promise.all([a, b].map((c) => shipped.run(c, fetches)));
    const feeds: Record<string, ort.Tensor> = {
      [slotted.slotRows]: new ort.Tensor('int64', BigInt64Array.of(4n, 3n), [2]),
    };
    for (const name of Object.keys(a))
      if (/\.encoder\./.test(name)) {
        feeds[`${name}/slot0`] = a[name]!;
        feeds[`${name}/slot1`] = b[name]!;
      } else Object.assign(feeds, { [name]: batch([{ [name]: a[name]! }, { [name]: b[name]! }], [4, 3])[name]! });
    const out = await slots.run(feeds, fetches);
    for (const f of fetches) {
      expect(rowsOf(out[f]!, 0, 4)).toEqual(Array.from(alone[0]![f]!.data as Float32Array));
      expect(rowsOf(out[f]!, 4, 7)).toEqual(Array.from(alone[1]![f]!.data as Float32Array));
    }
    await Promise.all([shipped.release(), slots.release()]);
  }, 120_000);
});

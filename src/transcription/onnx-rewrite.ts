// Load-time edits of the Moonshine ONNX graphs (the files stay as shipped; sessions are created from
// the edited bytes). Only what bench:asr measured as worth it, and only edits that keep the model's
// arithmetic exactly: the same words. (Running the output projection in 8 bits saved 8 % of the CPU but
// flipped near-ties, e.g. a listed name heard in lower case, so it was left out.)
import { detachBuffer } from './memory.ts';
import { type Field, bytesField, decodeMessage, encodeMessage, text, textField } from './protobuf.ts';

// ONNX field numbers (onnx.proto).
const MODEL = { graph: 7 } as const;
const GRAPH = { node: 1, initializer: 5, input: 11, output: 12, valueInfo: 13 } as const;
const NODE = { input: 1, output: 2, name: 3, opType: 4, attribute: 5 } as const;
const ATTRIBUTE = { g: 6 } as const;
const VALUE_INFO = { name: 1, type: 2 } as const;
const ATTR = { name: 1, ints: 8 } as const;
const TENSOR = { name: 8 } as const;

type Node = Field[];
const nodeInputs = (n: Node) => n.filter((x) => x.no === NODE.input).map(text);
const nodeOutputs = (n: Node) => n.filter((x) => x.no === NODE.output).map(text);
const nodeName = (n: Node) => text(n.find((x) => x.no === NODE.name));
const opType = (n: Node) => text(n.find((x) => x.no === NODE.opType));

/** The integers of a node's attribute `name` (packed or not), or null. */
function intsAttribute(n: Node, name: string): number[] | null {
  for (const f of n.filter((x) => x.no === NODE.attribute)) {
    const attr = decodeMessage(f.value as Uint8Array);
    if (text(attr.find((x) => x.no === ATTR.name)) !== name) continue;
    return attr
      .filter((x) => x.no === ATTR.ints)
      .flatMap((x) => (x.wire === 0 ? [Number(x.value)] : packedVarints(x.value as Uint8Array)));
  }
  return null;
}

function packedVarints(buf: Uint8Array): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const b of buf) {
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) {
      out.push(value);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

/** A graph's nodes, decoded. */
const nodesOf = (graph: Field[]): Node[] =>
  graph.filter((f) => f.no === GRAPH.node).map((f) => decodeMessage(f.value as Uint8Array));

/** Calls `visit` on every graph (the main one and each subgraph, outermost first) with its nodes. */
function eachGraph(graph: Uint8Array, visit: (nodes: Node[]) => void): void {
  const nodes = nodesOf(decodeMessage(graph));
  visit(nodes);
  for (const n of nodes)
    for (const a of n.filter((x) => x.no === NODE.attribute))
      for (const g of decodeMessage(a.value as Uint8Array).filter((x) => x.no === ATTRIBUTE.g))
        eachGraph(g.value as Uint8Array, visit);
}

/** A model's main graph, and the model with that graph replaced; null when it has none. */
function modelGraph(model: Uint8Array): { graph: Field[]; withGraph: (g: Uint8Array) => Uint8Array } | null {
  const fields = decodeMessage(model);
  const graphField = fields.find((f) => f.no === MODEL.graph);
  if (!graphField) return null;
  return {
    graph: decodeMessage(graphField.value as Uint8Array),
    withGraph: (g) => {
      const out = encodeMessage(fields.map((f) => (f === graphField ? bytesField(f.no, g) : f)));
      // The graph's own bytes (written for this model, 20 MB for a decoder) are copied into the model:
      // freed now, not at the thread's next collection, so a rewrite's peak holds one copy, not two.
      detachBuffer(g);
      return out;
    },
  };
}

/**
 * The merged decoder taken apart: its main graph, the branches of its one `If` (`cached`, the
 * cached-step one; `fresh`, the first-step one) and the nodes before the If (the Spanish model quantizes
 * the encoder's states once, outside the If). Null when the graph has no single If.
 */
function mergedDecoder(model: Uint8Array) {
  const m = modelGraph(model);
  if (!m) return null;
  const mainNodes = nodesOf(m.graph);
  const branching = mainNodes.filter((n) => opType(n) === 'If');
  if (branching.length !== 1) return null;
  const branch = (name: string) => {
    for (const f of branching[0]!.filter((x) => x.no === NODE.attribute)) {
      const attr = decodeMessage(f.value as Uint8Array);
      const g = attr.find((x) => x.no === ATTRIBUTE.g);
      if (text(attr.find((x) => x.no === ATTR.name)) === name && g) return decodeMessage(g.value as Uint8Array);
    }
    return null;
  };
  return {
    ...m,
    before: mainNodes.filter((n) => n !== branching[0]),
    cached: branch('then_branch'),
    fresh: branch('else_branch'),
  };
}

export interface SplitDecoder {
  /** The first step of a chunk (the merged graph's no-cache branch), also returning `crossKeys`' outputs. */
  first: Uint8Array;
  /** Every later step (the cache branch), reading the cross-attention keys as the first step left them. */
  later: Uint8Array;
  /** Per layer: the later model's key input and the first model's output that feeds it. */
  crossKeys: { input: string; output: string }[];
}

/**
 * The merged decoder (one `If` choosing between a first-step branch and a cached-step branch) as two
 * models, one per branch, edited so that later steps do less:
 * - The If prepared and ran its branch as a nested execution at every step; each branch now runs as a
 *   model of its own.
 * - Each layer's cached step transposed the chunk's cross-attention keys and scaled them by
 *   √(1/√headDim) again, for every hypothesis, at every step; the keys of a chunk never change. The
 *   first step computes exactly that tensor (the same nodes, by name, on the same values), so it is now
 *   returned by the first model and read by the later one, whose Transpose and Mul are removed.
 * - The cross-attention keys and values are read only by MatMuls, which broadcast over the batch: the
 *   later model declares their batch separately (`cross_batch`), so one copy serves every hypothesis.
 * Null when the model does not have this shape (then it is used as shipped).
 */
export function splitDecoder(
  model: Uint8Array,
  opts: {
    /** Also split a decoder whose cross-attention keys do not have the expected shape (then without that edit). */
    plainBranches?: boolean;
  } = {},
): SplitDecoder | null {
  const keyPattern = /^past_key_values\.\d+\.encoder\.key$/;
  const valuePattern = /^past_key_values\.\d+\.encoder\.value$/;
  const merged = mergedDecoder(model);
  if (!merged?.cached || !merged.fresh) return null;
  // The nodes before the If must be read only by the first step (checked below).
  const { graph, before, cached, fresh, withGraph } = merged;
  const laterNodes = nodesOf(cached);
  const firstNodes = [...before, ...nodesOf(fresh)];
  const readers = (nodes: Node[], name: string) => nodes.filter((n) => nodeInputs(n).includes(name));
  const outer = new Set(before.flatMap(nodeOutputs));
  const laterReads = new Set<string>();
  eachGraph(encodeMessage(laterNodes.map((n) => bytesField(GRAPH.node, encodeMessage(n)))), (ns) => {
    for (const n of ns) for (const i of nodeInputs(n)) laterReads.add(i);
  });
  if ([...outer].some((o) => laterReads.has(o))) return null;
  const inputName = (f: Field) => text(decodeMessage(f.value as Uint8Array).find((x) => x.no === VALUE_INFO.name));
  const inputs = graph.filter((f) => f.no === GRAPH.input);

  // Each key: read only by a Transpose (last two dims) read only by a Mul, whose namesake in the first
  // branch computes the same tensor from the same values.
  type KeyEdit = { input: string; output: string; removed: Node[]; scaled: string };
  const keyEdits = (): KeyEdit[] | null => {
    const edits: KeyEdit[] = [];
    for (const key of inputs.map(inputName).filter((n) => keyPattern.test(n))) {
      const [transpose, ...more] = readers(laterNodes, key);
      if (!transpose || more.length || opType(transpose) !== 'Transpose') return null;
      if (intsAttribute(transpose, 'perm')?.join(',') !== '0,1,3,2') return null;
      const [mul, ...others] = readers(laterNodes, nodeOutputs(transpose)[0]!);
      if (!mul || others.length || opType(mul) !== 'Mul') return null;
      const twin = firstNodes.find((n) => nodeName(n) === nodeName(mul) && opType(n) === 'Mul');
      if (!twin) return null;
      const scaled = nodeOutputs(mul)[0]!;
      if (!readers(laterNodes, scaled).every((n) => opType(n) === 'MatMul')) return null;
      edits.push({
        input: `${key}.scaled_transposed`,
        output: nodeOutputs(twin)[0]!,
        removed: [transpose, mul],
        scaled,
      });
    }
    const values = inputs.map(inputName).filter((n) => valuePattern.test(n));
    if (!edits.length || !values.every((v) => readers(laterNodes, v).every((n) => opType(n) === 'MatMul'))) return null;
    return edits;
  };
  const edits = keyEdits();
  // The Spanish export pads the cross-attention keys and values where the English one transposes and
  // scales them: its later steps keep those nodes (still one model per step kind, no If).
  if (!edits && !opts.plainBranches) return null;
  const crossKeys = edits ?? [];
  const values = edits ? inputs.map(inputName).filter((n) => valuePattern.test(n)) : [];

  // Later steps: the Transposes and Muls removed, their MatMuls reading the new inputs.
  const removed = new Set(crossKeys.flatMap((k) => k.removed));
  const renamed = new Map(crossKeys.map((k) => [k.scaled, k.input]));
  const later = laterNodes
    .filter((n) => !removed.has(n))
    .map((n) =>
      n.map((x) => (x.no === NODE.input && renamed.has(text(x)) ? textField(NODE.input, renamed.get(text(x))!) : x)),
    );
  const keyInputs = crossKeys.map((k) => {
    const declared = inputs.find((f) => inputName(f) === k.input.replace(/\.scaled_transposed$/, ''))!;
    return retype(declared, k.input, (dims) => crossBatch(swapLast(dims)));
  });
  const valueInputs = new Map(values.map((v) => [v, retype(inputs.find((f) => inputName(f) === v)!, v, crossBatch)]));
  const laterGraph = standalone(
    graph,
    later,
    [...keyInputs, ...inputs.map((f) => valueInputs.get(inputName(f)) ?? f)],
    cached.filter((f) => f.no === GRAPH.output || f.no === GRAPH.valueInfo),
  );

  // The first step: its branch as it is, returning the scaled keys too.
  const valueInfos = fresh.filter((f) => f.no === GRAPH.valueInfo);
  const extraOutputs = crossKeys.map(
    (k) =>
      valueInfos.find((f) => inputName(f) === k.output) ??
      bytesField(GRAPH.output, encodeMessage([textField(VALUE_INFO.name, k.output)])),
  );
  const firstGraph = standalone(graph, firstNodes, inputs, [
    ...fresh.filter((f) => f.no === GRAPH.output),
    ...extraOutputs.map((f) => bytesField(GRAPH.output, f.value as Uint8Array)),
    ...valueInfos.filter((f) => !crossKeys.some((k) => k.output === inputName(f))),
  ]);
  return {
    first: withGraph(firstGraph),
    later: withGraph(laterGraph),
    crossKeys: crossKeys.map(({ input, output }) => ({ input, output })),
  };
}

/**
 * A graph of `nodes` with the main graph's name, and those of `inputs` and of its initializers that the
 * nodes read (in any subgraph), followed by `rest` (outputs, value infos).
 */
function standalone(main: Field[], nodes: Node[], inputs: Field[], rest: Field[]): Uint8Array {
  const nodeFields = nodes.map((n) => bytesField(GRAPH.node, encodeMessage(n)));
  const read = new Set<string>();
  eachGraph(encodeMessage(nodeFields), (ns) => {
    for (const n of ns) for (const i of nodeInputs(n)) read.add(i);
  });
  const named = (f: Field, no: number) => read.has(text(decodeMessage(f.value as Uint8Array).find((x) => x.no === no)));
  return encodeMessage([
    ...nodeFields,
    ...main.filter(
      (f) => ![GRAPH.node, GRAPH.initializer, GRAPH.input, GRAPH.output, GRAPH.valueInfo].includes(f.no as 1),
    ),
    ...main.filter((f) => f.no === GRAPH.initializer && named(f, TENSOR.name)),
    ...inputs.filter((f) => named(f, VALUE_INFO.name)),
    ...rest,
  ]);
}

// TypeProto → tensor_type → shape → dim (each dim a dim_value or a dim_param).
const TYPE_TENSOR = 1;
const TENSOR_SHAPE = 2;
const SHAPE_DIM = 1;
const DIM_PARAM = 2;

/** A graph input (ValueInfoProto) under `name`, with its tensor shape's dims edited. */
function retype(input: Field, name: string, dims: (dims: Field[]) => Field[]): Field {
  const edit = (bytes: Uint8Array, no: number, f: (inner: Field[]) => Field[]) =>
    encodeMessage(
      decodeMessage(bytes).map((x) =>
        x.no === no ? bytesField(x.no, encodeMessage(f(decodeMessage(x.value as Uint8Array)))) : x,
      ),
    );
  const vi = decodeMessage(input.value as Uint8Array).map((x) => {
    if (x.no === VALUE_INFO.name) return textField(VALUE_INFO.name, name);
    if (x.no !== VALUE_INFO.type) return x;
    return bytesField(
      x.no,
      edit(x.value as Uint8Array, TYPE_TENSOR, (tensor) =>
        tensor.map((t) =>
          t.no === TENSOR_SHAPE
            ? bytesField(t.no, encodeMessage(reshapeDims(decodeMessage(t.value as Uint8Array), dims)))
            : t,
        ),
      ),
    );
  });
  return bytesField(input.no, encodeMessage(vi));
}

function reshapeDims(shape: Field[], edit: (dims: Field[]) => Field[]): Field[] {
  const dims = edit(shape.filter((d) => d.no === SHAPE_DIM));
  return [...dims, ...shape.filter((d) => d.no !== SHAPE_DIM)];
}

const swapLast = (dims: Field[]) => [...dims.slice(0, -2), dims.at(-1)!, dims.at(-2)!];
/** The batch dim as its own symbol: one row broadcast to every hypothesis. */
const crossBatch = (dims: Field[]) => [
  bytesField(SHAPE_DIM, encodeMessage([textField(DIM_PARAM, 'cross_batch')])),
  ...dims.slice(1),
];

/**
 * The part of the first-step model that computes the chunk's cross-attention inputs of later steps (each
 * layer's encoder keys, scaled and transposed, and values) from the encoder's states: the same nodes, on
 * the same values, so the same floats. With it, the first token goes through the later-step model with
 * an empty self-attention cache, and a thread holds one copy of the decoder's weights (the first-step
 * model held a second one, its 54 MB float output projection included).
 *
 * Each layer reshapes its keys and values with the batch size read from the shape of the decoder's own
 * hidden state, which would pull every layer below it into this model. `constants` gives such shapes'
 * values (the first step always has one row of one token; crossAttentionShapes lists them, the caller
 * measures which do not depend on the audio's length): those Shape nodes become constants, and the
 * model keeps only the encoder's side.
 */
export function crossAttentionModel(
  first: Uint8Array,
  outputs: readonly string[],
  constants: ReadonlyMap<string, readonly bigint[]> = new Map(),
): Uint8Array {
  const { graph, withGraph } = modelGraph(first)!;
  const nodes = nodesOf(graph).filter((n) => !nodeOutputs(n).every((o) => constants.has(o)));
  const kept = backwardSlice(nodes, outputs);
  const valueName = (f: Field) => text(decodeMessage(f.value as Uint8Array).find((x) => x.no === VALUE_INFO.name));
  const declared = new Map(graph.filter((f) => f.no === GRAPH.output).map((f) => [valueName(f), f]));
  const initializers = [...constants].map(([name, values]) => bytesField(GRAPH.initializer, int64Tensor(name, values)));
  const g = standalone(
    [...graph, ...initializers],
    kept,
    graph.filter((f) => f.no === GRAPH.input),
    outputs.map((o) => declared.get(o) ?? bytesField(GRAPH.output, encodeMessage([textField(VALUE_INFO.name, o)]))),
  );
  return withGraph(g);
}

/** The outputs of the Shape nodes crossAttentionModel would keep for `outputs` (see `constants` there). */
export function crossAttentionShapes(first: Uint8Array, outputs: readonly string[]): string[] {
  return backwardSlice(nodesOf(modelGraph(first)!.graph), outputs)
    .filter((n) => opType(n) === 'Shape')
    .flatMap(nodeOutputs);
}

/** The nodes (topologically ordered, as ONNX lists them) that `outputs` need, in order. */
function backwardSlice(nodes: Node[], outputs: readonly string[]): Node[] {
  const needed = new Set(outputs);
  const kept: Node[] = [];
  for (const n of [...nodes].reverse()) {
    if (!nodeOutputs(n).some((o) => needed.has(o))) continue;
    kept.unshift(n);
    for (const i of nodeInputs(n)) needed.add(i);
  }
  return kept;
}

/** A 1-D int64 TensorProto (dims 1, data_type 7, name 8, raw_data 9). */
function int64Tensor(name: string, values: readonly bigint[]): Uint8Array {
  const raw = new Uint8Array(values.length * 8);
  const view = new DataView(raw.buffer);
  for (const [i, v] of values.entries()) view.setBigInt64(i * 8, v, true);
  return encodeMessage([
    { no: 1, wire: 0, value: BigInt(values.length) },
    { no: 2, wire: 0, value: 7n },
    textField(8, name),
    bytesField(9, raw),
  ]);
}

export interface AttentionDecoder {
  /** The first-step decoder (all of `input_ids` at once, no cache) also returning `attention`. */
  model: Uint8Array;
  /** Per decoder layer, the cross-attention weights [batch, heads, tokens, frames]. */
  attention: string[];
}

/**
 * The merged decoder's first-step branch as a model of its own that also returns each layer's
 * cross-attention weights (the Softmax of its encoder attention): fed a whole transcript at once
 * (teacher forcing), it shows where in the audio the decoder looked for each token, which is how
 * src/transcription/align.ts times words. Null when the model does not have this shape.
 */
export function attentionDecoder(model: Uint8Array): AttentionDecoder | null {
  const merged = mergedDecoder(model);
  if (!merged?.fresh) return null;
  const { graph, before, fresh, withGraph } = merged;
  const nodes = nodesOf(fresh);
  // HF optimum names each layer's cross-attention `…/layers.N/encoder_attn/…`; its Softmax is the weights.
  const attention = nodes
    .filter((n) => opType(n) === 'Softmax' && /\/encoder_attn\//.test(nodeName(n)))
    .map((n) => nodeOutputs(n)[0]!);
  if (!attention.length) return null;
  const g = standalone(
    graph,
    [...before, ...nodes],
    graph.filter((f) => f.no === GRAPH.input),
    [
      ...fresh.filter((f) => f.no === GRAPH.output),
      ...attention.map((name) => bytesField(GRAPH.output, encodeMessage([textField(VALUE_INFO.name, name)]))),
    ],
  );
  return {
    model: withGraph(g),
    attention,
  };
}

// ONNX data types (TensorProto.DataType) and attribute types (AttributeProto.AttributeType).
const DT = { float: 1, uint8: 2, int32: 6, int64: 7, bool: 9 } as const;
const ATTR_TYPE = { int: 2, ints: 7 } as const;

function node(op: string, inputs: string[], outputs: string[], name: string, attrs: Uint8Array[] = []): Node {
  return [
    ...inputs.map((i) => textField(NODE.input, i)),
    ...outputs.map((o) => textField(NODE.output, o)),
    textField(NODE.name, name),
    textField(NODE.opType, op),
    ...attrs.map((a) => bytesField(NODE.attribute, a)),
  ];
}
const intAttr = (name: string, v: number) =>
  encodeMessage([
    textField(1, name),
    { no: 3, wire: 0, value: BigInt(v) },
    { no: 20, wire: 0, value: BigInt(ATTR_TYPE.int) },
  ]);
const intsAttr = (name: string, vs: number[]) =>
  encodeMessage([
    textField(1, name),
    ...vs.map((v) => ({ no: ATTR.ints, wire: 0 as const, value: BigInt(v) })),
    { no: 20, wire: 0, value: BigInt(ATTR_TYPE.ints) },
  ]);

/** A TensorProto of `type` with `dims` and little-endian `raw` data. */
function tensor(name: string, type: number, dims: number[], raw: Uint8Array): Uint8Array {
  return encodeMessage([
    ...dims.map((d) => ({ no: 1, wire: 0 as const, value: BigInt(d) })),
    { no: 2, wire: 0, value: BigInt(type) },
    textField(8, name),
    bytesField(9, raw),
  ]);
}
const floatScalar = (name: string, v: number) => tensor(name, DT.float, [], new Uint8Array(Float32Array.of(v).buffer));
const int64s = (name: string, vs: number[]) =>
  tensor(name, DT.int64, [vs.length], new Uint8Array(BigInt64Array.from(vs, BigInt).buffer));

/** A graph input of `type` whose dims are the symbols or sizes given. */
function inputInfo(name: string, type: number, dims: (string | number)[]): Uint8Array {
  const dim = (d: string | number) =>
    bytesField(
      SHAPE_DIM,
      encodeMessage([typeof d === 'number' ? { no: 1, wire: 0, value: BigInt(d) } : textField(DIM_PARAM, d)]),
    );
  const tensorType = encodeMessage([
    { no: 1, wire: 0, value: BigInt(type) },
    bytesField(TENSOR_SHAPE, encodeMessage(dims.map(dim))),
  ]);
  return encodeMessage([
    textField(VALUE_INFO.name, name),
    bytesField(VALUE_INFO.type, encodeMessage([bytesField(TYPE_TENSOR, tensorType)])),
  ]);
}

/** An initializer's dims and data bytes (raw_data, or int32_data for 8-bit types), by name. */
function initializerData(graph: Field[], name: string): { dims: number[]; type: number; bytes: Uint8Array } | null {
  for (const f of graph.filter((x) => x.no === GRAPH.initializer)) {
    const t = decodeMessage(f.value as Uint8Array);
    if (text(t.find((x) => x.no === TENSOR.name)) !== name) continue;
    const dims = t.filter((x) => x.no === 1).map((x) => Number(x.value));
    const type = Number(t.find((x) => x.no === 2)?.value ?? 0);
    const raw = t.find((x) => x.no === 9);
    if (raw) return { dims, type, bytes: raw.value as Uint8Array };
    const ints = t
      .filter((x) => x.no === 5)
      .flatMap((x) => (x.wire === 0 ? [Number(x.value)] : packedVarints(x.value as Uint8Array)));
    return { dims, type, bytes: Uint8Array.from(ints) };
  }
  return null;
}

/** The later-step model with its activations quantized per group of rows (groupQuantized). */
export interface GroupQuantized {
  model: Uint8Array;
  /** Input: bool [groups, rows], true where the row belongs to the group. */
  groupMask: string;
  /** Input: int64 [rows], each row's group. */
  rowGroup: string;
}

/**
 * The decoder quantizes its activations at run time (DynamicQuantizeLinear feeding MatMulInteger): one
 * scale and zero point over the whole tensor, every row of the batch, so a chunk's numbers depend on what
 * it is batched with. This rewrites each DynamicQuantizeLinear to take its range per group of rows (one
 * group = one chunk's hypotheses) with ONNX Runtime's own arithmetic (range widened to include 0, scale
 * (max − min) / 255 or 1 when the range is empty, zero point round-half-even(clamp(0 − min / scale)),
 * q = clamp(round(x / scale) + zp)), and each MatMulInteger it feeds to take no A zero point, subtracting
 * zp × Σₖ(B − zp_B) per row instead (exact in int32). With all rows in one group it computes what the
 * shipped graph does; with several, each group what it would alone — if the kernels agree bit for bit,
 * which scripts/bench/asr-batch-exact.ts checks. Null when the graph has no such nodes.
 */
export function groupQuantized(model: Uint8Array): GroupQuantized | null {
  const m = modelGraph(model);
  if (!m) return null;
  const nodes = nodesOf(m.graph);
  const dqls = nodes.filter((n) => opType(n) === 'DynamicQuantizeLinear');
  if (!dqls.length) return null;
  const groupMask = 'quant_group_mask';
  const rowGroup = 'quant_row_group';
  const initializers: Uint8Array[] = [
    floatScalar('quant/zero', 0),
    floatScalar('quant/one', 1),
    floatScalar('quant/255', 255),
    floatScalar('quant/inf', Number.POSITIVE_INFINITY),
    floatScalar('quant/-inf', Number.NEGATIVE_INFINITY),
    int64s('quant/rows_flat', [0, -1]),
    int64s('quant/one_row', [1, -1]),
    int64s('quant/per_row', [-1, 1, 1]),
  ];
  const zeroPoints = new Map<string, string>();
  const out: Node[] = [];
  for (const n of nodes) {
    if (opType(n) === 'DynamicQuantizeLinear') {
      const [x] = nodeInputs(n);
      const [q, s, zp] = nodeOutputs(n);
      const p = `${nodeName(n)}/grouped`;
      const v = (s: string) => `${p}/${s}`;
      out.push(
        node('Reshape', [x!, 'quant/rows_flat'], [v('flat')], v('flat')),
        ...(['Min', 'Max'] as const).flatMap((k) => [
          node(`Reduce${k}`, [v('flat')], [v(`row${k}`)], v(`row${k}`), [
            intsAttr('axes', [1]),
            intAttr('keepdims', 0),
          ]),
          node('Reshape', [v(`row${k}`), 'quant/one_row'], [v(`row${k}1`)], v(`row${k}1`)),
          node(
            'Where',
            [groupMask, v(`row${k}1`), k === 'Min' ? 'quant/inf' : 'quant/-inf'],
            [v(`masked${k}`)],
            v(`masked${k}`),
          ),
          node(`Reduce${k}`, [v(`masked${k}`)], [v(`group${k}`)], v(`group${k}`), [
            intsAttr('axes', [1]),
            intAttr('keepdims', 0),
          ]),
          node(k, [v(`group${k}`), 'quant/zero'], [v(`with0${k}`)], v(`with0${k}`)),
        ]),
        node('Sub', [v('with0Max'), v('with0Min')], [v('range')], v('range')),
        node('Div', [v('range'), 'quant/255'], [v('step')], v('step')),
        node('Equal', [v('with0Max'), v('with0Min')], [v('empty')], v('empty')),
        node('Where', [v('empty'), 'quant/one', v('step')], [v('scale')], v('scale')),
        node('Div', [v('with0Min'), v('scale')], [v('minSteps')], v('minSteps')),
        node('Sub', ['quant/zero', v('minSteps')], [v('zpInitial')], v('zpInitial')),
        node('Clip', [v('zpInitial'), 'quant/zero', 'quant/255'], [v('zpClipped')], v('zpClipped')),
        node('Round', [v('zpClipped')], [v('zp')], v('zp')),
        node('Gather', [v('scale'), rowGroup], [v('rowScale')], v('rowScale')),
        node('Reshape', [v('rowScale'), 'quant/per_row'], [s!], v('rowScale3')),
        node('Gather', [v('zp'), rowGroup], [v('rowZp')], v('rowZp')),
        node('Reshape', [v('rowZp'), 'quant/per_row'], [v('rowZp3')], v('rowZp3')),
        node('Div', [x!, s!], [v('scaled')], v('scaled')),
        node('Round', [v('scaled')], [v('rounded')], v('rounded')),
        node('Add', [v('rounded'), v('rowZp3')], [v('shifted')], v('shifted')),
        node('Clip', [v('shifted'), 'quant/zero', 'quant/255'], [v('clipped')], v('clipped')),
        node('Cast', [v('clipped')], [q!], v('q'), [intAttr('to', DT.uint8)]),
        node('Cast', [v('rowZp3')], [v('rowZpInt')], v('rowZpInt'), [intAttr('to', DT.int32)]),
      );
      zeroPoints.set(zp!, v('rowZpInt'));
      continue;
    }
    const [a, b, aZp, bZp] = nodeInputs(n);
    if (opType(n) === 'MatMulInteger' && aZp && zeroPoints.has(aZp)) {
      const weights = initializerData(m.graph, b!);
      const weightZp = bZp ? initializerData(m.graph, bZp) : null;
      if (!weights || weights.type !== DT.uint8 || weights.dims.length !== 2) return null;
      if (weightZp && (weightZp.type !== DT.uint8 || weightZp.bytes.length !== 1)) return null;
      const [k, cols] = weights.dims as [number, number];
      const zpB = weightZp?.bytes[0] ?? 0;
      const sums = new Int32Array(cols);
      for (let i = 0; i < k; i++) for (let j = 0; j < cols; j++) sums[j]! += weights.bytes[i * cols + j]! - zpB;
      const name = nodeName(n);
      const [y] = nodeOutputs(n);
      initializers.push(tensor(`${name}/colsum`, DT.int32, [cols], new Uint8Array(sums.buffer)));
      out.push(
        node('MatMulInteger', [a!, b!, '', ...(bZp ? [bZp] : [])], [`${name}/raw`], name),
        node('Mul', [zeroPoints.get(aZp)!, `${name}/colsum`], [`${name}/correction`], `${name}/correction`),
        node('Sub', [`${name}/raw`, `${name}/correction`], [y!], `${name}/corrected`),
      );
      continue;
    }
    out.push(n);
  }
  // Every zero point must have been consumed by a MatMulInteger rewritten above.
  const read = new Set(out.flatMap(nodeInputs));
  if ([...zeroPoints.keys()].some((z) => read.has(z))) return null;
  // Shapes declared for what changed shape (the scales, now one per row, and what multiplies them) go.
  const changed = new Set(dqls.flatMap((n) => nodeOutputs(n)));
  for (const n of out)
    if (nodeInputs(n).some((i) => changed.has(i)) && opType(n) === 'Mul')
      for (const o of nodeOutputs(n)) changed.add(o);
  const declared = (f: Field) => text(decodeMessage(f.value as Uint8Array).find((x) => x.no === VALUE_INFO.name));
  const graph = encodeMessage([
    ...out.map((n) => bytesField(GRAPH.node, encodeMessage(n))),
    ...m.graph.filter((f) => f.no !== GRAPH.node && !(f.no === GRAPH.valueInfo && changed.has(declared(f)))),
    ...initializers.map((t) => bytesField(GRAPH.initializer, t)),
    bytesField(GRAPH.input, inputInfo(groupMask, DT.bool, ['quant_groups', 'batch_size'])),
    bytesField(GRAPH.input, inputInfo(rowGroup, DT.int64, ['batch_size'])),
  ]);
  return { model: m.withGraph(graph), groupMask, rowGroup };
}

/** The later-step model with a mask over the encoder's frames (crossAttentionMasked). */
export interface CrossMasked {
  model: Uint8Array;
  /** Input: float [rows, 1, 1, frames], 0 where a row's chunk has the frame and −∞ where it is padding. */
  mask: string;
}

/**
 * The graphs have no attention mask: every row of a batch attends to all the encoder frames it is given,
 * so chunks of different lengths cannot share a batch as they are. This adds a mask before the Softmax of
 * each layer's cross-attention (HF optimum names it `…/encoder_attn/…`): a chunk's keys and values padded
 * with zeros to the longest chunk's frames, −∞ on the padding, gives each padded frame a weight of exactly
 * 0. Whether the Softmax and the weighted sum come out bit for bit as without padding is for
 * scripts/bench/asr-batch-exact.ts to check. Null when there is no such Softmax.
 */
export function crossAttentionMasked(model: Uint8Array): CrossMasked | null {
  const m = modelGraph(model);
  if (!m) return null;
  const mask = 'cross_attention_mask';
  const out: Node[] = [];
  let found = 0;
  for (const n of nodesOf(m.graph)) {
    if (opType(n) === 'Softmax' && /\/encoder_attn\//.test(nodeName(n))) {
      const [scores] = nodeInputs(n);
      const masked = `${nodeName(n)}/masked_input`;
      out.push(
        node('Add', [scores!, mask], [masked], `${nodeName(n)}/mask`),
        n.map((x) => (x.no === NODE.input ? textField(NODE.input, masked) : x)),
      );
      found++;
      continue;
    }
    out.push(n);
  }
  if (!found) return null;
  const graph = encodeMessage([
    ...out.map((n) => bytesField(GRAPH.node, encodeMessage(n))),
    ...m.graph.filter((f) => f.no !== GRAPH.node),
    bytesField(GRAPH.input, inputInfo(mask, DT.float, ['batch_size', 1, 1, 'encoder_sequence_length_out'])),
  ]);
  return { model: m.withGraph(graph), mask };
}

/** The later-step model with its quantized products run per slot of rows (slotQuantized). */
export interface SlotQuantized {
  model: Uint8Array;
  /** Input: int64 [slots], how many rows (one chunk's hypotheses) each slot has, in batch order. */
  slotRows: string;
}

/**
 * Another way to keep each chunk's quantization its own: every DynamicQuantizeLinear and the integer
 * products it feeds run once per slot (`slots` chunks at most) on that slot's rows — the very nodes of
 * the shipped graph, which ONNX Runtime fuses as it does there, on the rows it would see alone — and the
 * slots' results are concatenated. Everything else (the float output projection included) runs once over
 * all rows. The int8 weights are read once per slot (they are 25 MB a step against the projection's 54).
 * Null when a quantized product does not have the shipped shape (Cast then Mul by scale × weight scale).
 */
export function slotQuantized(model: Uint8Array, slots: number): SlotQuantized | null {
  const m = modelGraph(model);
  if (!m) return null;
  const nodes = nodesOf(m.graph);
  const slotRows = 'quant_slot_rows';
  const readers = (name: string) => nodes.filter((n) => nodeInputs(n).includes(name));
  const replaced = new Set<Node>();
  const inserted = new Map<Node, Node[]>();
  for (const dql of nodes.filter((n) => opType(n) === 'DynamicQuantizeLinear')) {
    const [x] = nodeInputs(dql);
    const [q, s, zp] = nodeOutputs(dql);
    const p = nodeName(dql);
    // Each product: MatMulInteger(q, W, zp, Wzp) → Cast → Mul(·, Mul(s, Wscale)).
    const chains: { mmi: Node; scale: Node; cast: Node; mul: Node }[] = [];
    for (const mmi of readers(q!)) {
      if (opType(mmi) !== 'MatMulInteger' || nodeInputs(mmi)[2] !== zp) return null;
      const [cast, ...more] = readers(nodeOutputs(mmi)[0]!);
      if (!cast || more.length || opType(cast) !== 'Cast') return null;
      const [mul, ...others] = readers(nodeOutputs(cast)[0]!);
      if (!mul || others.length || opType(mul) !== 'Mul') return null;
      const scaleName = nodeInputs(mul).find((i) => i !== nodeOutputs(cast)[0]);
      const scale = nodes.find((n) => nodeOutputs(n)[0] === scaleName);
      if (!scale || opType(scale) !== 'Mul' || !nodeInputs(scale).includes(s!)) return null;
      chains.push({ mmi, scale, cast, mul });
    }
    if (readers(s!).some((n) => !chains.some((c) => c.scale === n))) return null;
    if (readers(zp!).some((n) => !chains.some((c) => c.mmi === n))) return null;
    const slot = (name: string, g: number) => `${name}/slot${g}`;
    const rename = (n: Node, g: number, names: Set<string>): Node =>
      n.map((f) => {
        if (f.no === NODE.name) return textField(NODE.name, slot(text(f), g));
        if ((f.no === NODE.input || f.no === NODE.output) && names.has(text(f)))
          return textField(f.no, slot(text(f), g));
        return f;
      });
    const local = new Set([
      x!,
      q!,
      s!,
      zp!,
      ...chains.flatMap((c) => [c.mmi, c.scale, c.cast, c.mul].flatMap(nodeOutputs)),
    ]);
    const group: Node[] = [
      node(
        'Split',
        [x!, slotRows],
        Array.from({ length: slots }, (_, g) => slot(x!, g)),
        `${p}/split`,
        [intAttr('axis', 0)],
      ),
    ];
    for (let g = 0; g < slots; g++) {
      group.push(rename(dql, g, local));
      for (const c of chains) group.push(...[c.mmi, c.scale, c.cast, c.mul].map((n) => rename(n, g, local)));
    }
    for (const c of chains) {
      const out = nodeOutputs(c.mul)[0]!;
      group.push(
        node(
          'Concat',
          Array.from({ length: slots }, (_, g) => slot(out, g)),
          [out],
          `${nodeName(c.mul)}/concat`,
          [intAttr('axis', 0)],
        ),
      );
    }
    for (const c of chains) for (const n of [c.mmi, c.scale, c.cast, c.mul]) replaced.add(n);
    replaced.add(dql);
    inserted.set(dql, group);
  }
  if (!inserted.size) return null;
  const out = nodes.flatMap((n) => inserted.get(n) ?? (replaced.has(n) ? [] : [n]));
  const renamedAway = new Set([...replaced].flatMap(nodeOutputs));
  const declared = (f: Field) => text(decodeMessage(f.value as Uint8Array).find((x) => x.no === VALUE_INFO.name));
  const graph = encodeMessage([
    ...out.map((n) => bytesField(GRAPH.node, encodeMessage(n))),
    ...m.graph.filter((f) => f.no !== GRAPH.node && !(f.no === GRAPH.valueInfo && renamedAway.has(declared(f)))),
    ...(m.graph.some((f) => f.no === GRAPH.input && declared(f) === slotRows)
      ? []
      : [bytesField(GRAPH.input, inputInfo(slotRows, DT.int64, [slots]))]),
  ]);
  return { model: m.withGraph(graph), slotRows };
}

/** The name of the output lastPositionOutputs adds for the self-attention cache output `present`. */
export const lastPositionName = (present: string) => `${present}/last`;

/**
 * The later-step model with, beside each self-attention cache output (`present.<i>.decoder.key|value`,
 * [rows, heads, positions, head size], the fed cache with this step's position appended), the last position
 * alone as an output of its own (lastPositionName: a Slice of it). A caller that keeps the caches it fed
 * fetches only these: the step's whole caches are not copied out of ONNX Runtime into JavaScript at every
 * step (the binding allocates, zeroes and fills a new buffer per output), and the cache is rebuilt from the
 * same numbers (the fed positions and this one). The graph's own nodes are untouched. Null when the model
 * has no such outputs.
 */
export function lastPositionOutputs(model: Uint8Array): Uint8Array | null {
  const m = modelGraph(model);
  if (!m) return null;
  const outputName = (f: Field) => text(decodeMessage(f.value as Uint8Array).find((x) => x.no === VALUE_INFO.name));
  const presents = m.graph
    .filter((f) => f.no === GRAPH.output)
    .map(outputName)
    .filter((n) => /^present\.\d+\.decoder\.(key|value)$/.test(n));
  if (!presents.length) return null;
  const [starts, ends, axes] = ['last_position/starts', 'last_position/ends', 'last_position/axes'];
  const graph = encodeMessage([
    ...m.graph,
    bytesField(GRAPH.initializer, int64s(starts, [-1])),
    bytesField(GRAPH.initializer, int64s(ends, [2 ** 53 - 1])),
    bytesField(GRAPH.initializer, int64s(axes, [2])),
    ...presents.map((p) =>
      bytesField(GRAPH.node, encodeMessage(node('Slice', [p, starts, ends, axes], [lastPositionName(p)], `${p}/last`))),
    ),
    ...presents.map((p) => bytesField(GRAPH.output, encodeMessage([textField(VALUE_INFO.name, lastPositionName(p))]))),
  ]);
  return m.withGraph(graph);
}

/**
 * Cross-attention per slot of rows (see slotQuantized): each layer's MatMul–Softmax–MatMul over the encoder
 * runs once per slot, on that slot's rows and its own chunk's keys and values (inputs `<name>/slot<g>`, each
 * with its own number of frames), so chunks of different lengths share a step with the shapes each has
 * alone. Null when the keys and values are not read straight from the inputs (the Spanish export pads them).
 */
export function slotCrossAttention(model: Uint8Array, slots: number): Uint8Array | null {
  const m = modelGraph(model);
  if (!m) return null;
  const nodes = nodesOf(m.graph);
  const inputs = m.graph.filter((f) => f.no === GRAPH.input);
  const inputName = (f: Field) => text(decodeMessage(f.value as Uint8Array).find((x) => x.no === VALUE_INFO.name));
  const isInput = new Set(inputs.map(inputName));
  const replaced = new Set<Node>();
  const inserted = new Map<Node, Node[]>();
  const perSlot = new Set<string>();
  for (const softmax of nodes.filter((n) => opType(n) === 'Softmax' && /\/encoder_attn\//.test(nodeName(n)))) {
    const scores = nodes.find((n) => nodeOutputs(n)[0] === nodeInputs(softmax)[0]);
    const readers = nodes.filter((n) => nodeInputs(n).includes(nodeOutputs(softmax)[0]!));
    const [weighted] = readers;
    if (!scores || opType(scores) !== 'MatMul' || readers.length !== 1 || opType(weighted!) !== 'MatMul') return null;
    const [query, keys] = nodeInputs(scores);
    const values = nodeInputs(weighted!)[1]!;
    if (!isInput.has(keys!) || !isInput.has(values)) return null;
    const slot = (name: string, g: number) => `${name}/slot${g}`;
    const p = nodeName(softmax);
    const group: Node[] = [
      node(
        'Split',
        [query!, 'quant_slot_rows'],
        Array.from({ length: slots }, (_, g) => slot(query!, g)),
        `${p}/split`,
        [intAttr('axis', 0)],
      ),
    ];
    const local = new Set([query!, keys!, values, ...[scores, softmax, weighted!].flatMap(nodeOutputs)]);
    for (let g = 0; g < slots; g++)
      for (const n of [scores, softmax, weighted!])
        group.push(
          n.map((f) => {
            if (f.no === NODE.name) return textField(NODE.name, slot(text(f), g));
            if ((f.no === NODE.input || f.no === NODE.output) && local.has(text(f)))
              return textField(f.no, slot(text(f), g));
            return f;
          }),
        );
    const out = nodeOutputs(weighted!)[0]!;
    group.push(
      node(
        'Concat',
        Array.from({ length: slots }, (_, g) => slot(out, g)),
        [out],
        `${p}/concat`,
        [intAttr('axis', 0)],
      ),
    );
    for (const n of [scores, softmax, weighted!]) replaced.add(n);
    inserted.set(scores, group);
    perSlot.add(keys!);
    perSlot.add(values);
  }
  if (!inserted.size) return null;
  // Topological order: a group goes where its scores MatMul was (its Softmax and MatMul came later, reading only it).
  const out = nodes.flatMap((n) => inserted.get(n) ?? (replaced.has(n) ? [] : [n]));
  const frames = (g: number) => (dims: Field[]) =>
    dims.map((d) => {
      const param = text(decodeMessage(d.value as Uint8Array).find((x) => x.no === DIM_PARAM));
      return param === 'encoder_sequence_length_out'
        ? bytesField(SHAPE_DIM, encodeMessage([textField(DIM_PARAM, `encoder_frames_slot${g}`)]))
        : d;
    });
  const graph = encodeMessage([
    ...out.map((n) => bytesField(GRAPH.node, encodeMessage(n))),
    ...m.graph.filter((f) => f.no !== GRAPH.node && !(f.no === GRAPH.input && perSlot.has(inputName(f)))),
    ...inputs
      .filter((f) => perSlot.has(inputName(f)))
      .flatMap((f) => Array.from({ length: slots }, (_, g) => retype(f, `${inputName(f)}/slot${g}`, frames(g)))),
    ...(isInput.has('quant_slot_rows')
      ? []
      : [bytesField(GRAPH.input, inputInfo('quant_slot_rows', DT.int64, [slots]))]),
  ]);
  return m.withGraph(graph);
}

/**
 * A model of one node: log Σ exp of the decoder's logits over the vocabulary, at every position of every
 * row (`logits` [rows, positions, vocabulary] → `log_sum_exp` [rows, positions]). Teacher forcing needs it
 * at every position of every text scored; in JavaScript it cost about as much as the decoder run itself
 * (32768 exponentials a position), in ONNX Runtime's vectorised reduction a small part of it.
 */
export function logSumExpModel(): Uint8Array {
  const graph = encodeMessage([
    bytesField(
      GRAPH.node,
      encodeMessage(
        node('ReduceLogSumExp', ['logits'], ['log_sum_exp'], 'log_sum_exp', [
          intsAttr('axes', [2]),
          intAttr('keepdims', 0),
        ]),
      ),
    ),
    textField(2, 'log_sum_exp'),
    bytesField(GRAPH.input, inputInfo('logits', DT.float, ['rows', 'positions', 'vocabulary'])),
    bytesField(GRAPH.output, inputInfo('log_sum_exp', DT.float, ['rows', 'positions'])),
  ]);
  // ModelProto: ir_version 8, the default domain at opset 14 (the decoders'), the graph.
  return encodeMessage([
    { no: 1, wire: 0, value: 8n },
    bytesField(8, encodeMessage([{ no: 2, wire: 0, value: 14n }])),
    bytesField(MODEL.graph, graph),
  ]);
}

// Load-time edits of the Moonshine ONNX graphs (the files stay as shipped; sessions are created from
// the edited bytes). Only what bench:asr measured as worth it, and only edits that keep the model's
// arithmetic exactly: the same words. (Running the output projection in 8 bits saved 8 % of the CPU but
// flipped near-ties, e.g. a listed name heard in lower case, so it was left out.)
import { type Field, bytesField, decodeMessage, encodeMessage, text, textField } from './protobuf.ts';

// ONNX field numbers (onnx.proto).
const MODEL = { graph: 7 } as const;
const GRAPH = { node: 1 } as const;
const NODE = { input: 1, output: 2, opType: 4, attribute: 5 } as const;
const ATTRIBUTE = { g: 6 } as const;
const GRAPH_IO = { input: 11 } as const;
const VALUE_INFO = { name: 1, type: 2 } as const;
const ATTR = { name: 1, ints: 8 } as const;

type Node = Field[];
const nodeInputs = (n: Node) => n.filter((x) => x.no === NODE.input).map(text);
const nodeOutputs = (n: Node) => n.filter((x) => x.no === NODE.output).map(text);
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

/** Calls `visit` on every graph (the main one and each subgraph, outermost first) with its nodes. */
function eachGraph(graph: Uint8Array, visit: (nodes: Node[]) => void): void {
  const nodes = decodeMessage(graph)
    .filter((f) => f.no === GRAPH.node)
    .map((f) => decodeMessage(f.value as Uint8Array));
  visit(nodes);
  for (const n of nodes)
    for (const a of n.filter((x) => x.no === NODE.attribute))
      for (const g of decodeMessage(a.value as Uint8Array).filter((x) => x.no === ATTRIBUTE.g))
        eachGraph(g.value as Uint8Array, visit);
}

/** Rewrites every graph's node list with `edit` (null: unchanged), subgraphs first. */
function mapGraphs(graph: Uint8Array, edit: (nodes: Node[]) => Node[] | null): Uint8Array {
  let changed = false;
  const fields = decodeMessage(graph).map((f) => {
    if (f.no !== GRAPH.node) return f;
    let nodeChanged = false;
    const n = decodeMessage(f.value as Uint8Array).map((x) => {
      if (x.no !== NODE.attribute) return x;
      let attrChanged = false;
      const attr = decodeMessage(x.value as Uint8Array).map((a) => {
        if (a.no !== ATTRIBUTE.g) return a;
        const g = mapGraphs(a.value as Uint8Array, edit);
        if (g === a.value) return a;
        attrChanged = true;
        return bytesField(a.no, g);
      });
      if (!attrChanged) return x;
      nodeChanged = true;
      return bytesField(x.no, encodeMessage(attr));
    });
    if (!nodeChanged) return f;
    changed = true;
    return bytesField(f.no, encodeMessage(n));
  });
  const edited = edit(fields.filter((f) => f.no === GRAPH.node).map((f) => decodeMessage(f.value as Uint8Array)));
  if (!edited && !changed) return graph;
  if (!edited) return encodeMessage(fields);
  // Nodes first, then the rest in their order (ONNX Runtime reads fields in any order).
  return encodeMessage([
    ...edited.map((n) => bytesField(GRAPH.node, encodeMessage(n))),
    ...fields.filter((f) => f.no !== GRAPH.node),
  ]);
}

/**
 * Every decoder step transposed each layer's cross-attention keys (`past_key_values.N.encoder.key`,
 * [batch, heads, frames, dim] → [batch, heads, dim, frames]) again, for every hypothesis: the same
 * copy of up to a megabyte per layer, step after step. The keys of a chunk never change, so the engine
 * transposes them once per chunk and feeds them so; this removes the Transpose nodes and declares
 * those inputs transposed. Returns the inputs now expected transposed (none when the graph does not
 * have the pattern: then the model is unchanged).
 */
export function pretransposedKeys(
  model: Uint8Array,
  pattern: RegExp = /^past_key_values\.\d+\.encoder\.key$/,
): { model: Uint8Array; inputs: string[] } {
  const fields = decodeMessage(model);
  const graphField = fields.find((f) => f.no === MODEL.graph);
  if (!graphField) return { model, inputs: [] };
  const graph = graphField.value as Uint8Array;
  const declared = decodeMessage(graph)
    .filter((f) => f.no === GRAPH_IO.input)
    .map((f) => text(decodeMessage(f.value as Uint8Array).find((x) => x.no === VALUE_INFO.name)))
    .filter((name) => pattern.test(name));
  // An input qualifies when every node that reads it, in any graph, is that transpose.
  const isKeyTranspose = (n: Node) => {
    const perm = intsAttribute(n, 'perm');
    return opType(n) === 'Transpose' && perm?.join(',') === '0,1,3,2';
  };
  const ok = new Map(declared.map((name) => [name, 0]));
  eachGraph(graph, (nodes) => {
    for (const n of nodes)
      for (const i of nodeInputs(n)) {
        if (!ok.has(i)) continue;
        ok.set(i, isKeyTranspose(n) && ok.get(i)! >= 0 ? ok.get(i)! + 1 : -1);
      }
  });
  const inputs = declared.filter((name) => ok.get(name)! > 0);
  if (!inputs.length) return { model, inputs };
  const chosen = new Set(inputs);

  let edited = mapGraphs(graph, (nodes) => {
    const renamed = new Map<string, string>();
    const kept = nodes.filter((n) => {
      const [input] = nodeInputs(n);
      if (!input || !chosen.has(input) || !isKeyTranspose(n)) return true;
      renamed.set(nodeOutputs(n)[0]!, input);
      return false;
    });
    if (!renamed.size) return null;
    return kept.map((n) =>
      n.map((x) => (x.no === NODE.input && renamed.has(text(x)) ? textField(NODE.input, renamed.get(text(x))!) : x)),
    );
  });
  // The inputs' declared shapes swap their last two dimensions.
  edited = encodeMessage(
    decodeMessage(edited).map((f) => {
      if (f.no !== GRAPH_IO.input) return f;
      const vi = decodeMessage(f.value as Uint8Array);
      if (!chosen.has(text(vi.find((x) => x.no === VALUE_INFO.name)))) return f;
      return bytesField(
        f.no,
        encodeMessage(
          vi.map((x) => (x.no === VALUE_INFO.type ? bytesField(x.no, swapLastDims(x.value as Uint8Array)) : x)),
        ),
      );
    }),
  );
  return { model: encodeMessage(fields.map((f) => (f === graphField ? bytesField(f.no, edited) : f))), inputs };
}

/** TypeProto (tensor) with the last two dimensions of its shape swapped. */
function swapLastDims(type: Uint8Array): Uint8Array {
  const TYPE_TENSOR = 1;
  const TENSOR_SHAPE = 2;
  const SHAPE_DIM = 1;
  return encodeMessage(
    decodeMessage(type).map((t) => {
      if (t.no !== TYPE_TENSOR) return t;
      return bytesField(
        t.no,
        encodeMessage(
          decodeMessage(t.value as Uint8Array).map((s) => {
            if (s.no !== TENSOR_SHAPE) return s;
            const dims = decodeMessage(s.value as Uint8Array);
            const at = dims.map((d, i) => (d.no === SHAPE_DIM ? i : -1)).filter((i) => i >= 0);
            if (at.length < 2) return s;
            const [a, b] = [at.at(-2)!, at.at(-1)!];
            const swapped = [...dims];
            [swapped[a], swapped[b]] = [dims[b]!, dims[a]!];
            return bytesField(s.no, encodeMessage(swapped));
          }),
        ),
      );
    }),
  );
}

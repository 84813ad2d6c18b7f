// Load-time edits of the Moonshine ONNX graphs (the files stay as shipped; sessions are created from
// the edited bytes). Only what bench:asr measured as worth it, each keeping the model's arithmetic
// up to the 8-bit rounding the rest of the model already does.
import { type Field, decodeMessage, encodeMessage, text, textField, varintField, bytesField } from './protobuf.ts';

// ONNX field numbers (onnx.proto).
const MODEL = { graph: 7, opsetImport: 8 } as const;
const GRAPH = { node: 1 } as const;
const NODE = { input: 1, output: 2, name: 3, opType: 4, attribute: 5, domain: 7 } as const;
const ATTRIBUTE = { g: 6, graphs: 11 } as const;
const OPSET = { domain: 1, version: 2 } as const;

/**
 * A MatMul whose weight is a DequantizeLinear of an 8-bit constant (Moonshine's output projection: the
 * 32000-word embedding, 416 × 32768) multiplies by the dequantized floats: 54 MB of weights read for every
 * decoded token. ONNX Runtime's DynamicQuantizeMatMul (what its other layers already run as) reads the
 * 13.6 MB of bytes instead and quantizes the one activation row. Returns the model unchanged when
 * there is nothing to rewrite.
 */
export function int8WeightMatMuls(model: Uint8Array): { model: Uint8Array; rewritten: number } {
  const fields = decodeMessage(model);
  let rewritten = 0;
  const out = fields.map((f) => {
    if (f.no !== MODEL.graph) return f;
    const r = rewriteGraph(f.value as Uint8Array);
    rewritten += r.rewritten;
    return r.rewritten ? bytesField(f.no, r.graph) : f;
  });
  if (!rewritten) return { model, rewritten };
  const hasMs = out.some(
    (f) =>
      f.no === MODEL.opsetImport &&
      text(decodeMessage(f.value as Uint8Array).find((x) => x.no === OPSET.domain)) === 'com.microsoft',
  );
  if (!hasMs)
    out.push(
      bytesField(
        MODEL.opsetImport,
        encodeMessage([textField(OPSET.domain, 'com.microsoft'), varintField(OPSET.version, 1)]),
      ),
    );
  return { model: encodeMessage(out), rewritten };
}

function rewriteGraph(graph: Uint8Array): { graph: Uint8Array; rewritten: number } {
  const fields = decodeMessage(graph);
  let rewritten = 0;
  // Subgraphs first (Moonshine's merged decoder is one If node with a branch per cache state).
  let nodes = fields.map((f) => {
    if (f.no !== GRAPH.node) return f;
    const r = rewriteSubgraphs(f);
    rewritten += r.rewritten;
    return r.node;
  });

  const parsed = nodes.map((f) => (f.no === GRAPH.node ? decodeMessage(f.value as Uint8Array) : null));
  const producer = new Map<string, number>();
  const consumers = new Map<string, number>();
  parsed.forEach((n, i) => {
    if (!n) return;
    for (const o of n.filter((x) => x.no === NODE.output)) producer.set(text(o), i);
    for (const x of n.filter((x) => x.no === NODE.input)) consumers.set(text(x), (consumers.get(text(x)) ?? 0) + 1);
  });
  const drop = new Set<number>();
  parsed.forEach((n, i) => {
    if (!n || text(n.find((x) => x.no === NODE.opType)) !== 'MatMul' || text(n.find((x) => x.no === NODE.domain)))
      return;
    const [a, b] = n.filter((x) => x.no === NODE.input).map(text);
    const dqAt = producer.get(b ?? '');
    const dq = dqAt === undefined ? null : parsed[dqAt];
    if (!a || !dq || text(dq.find((x) => x.no === NODE.opType)) !== 'DequantizeLinear') return;
    // A per-axis DequantizeLinear (axis attribute) is left alone: DynamicQuantizeMatMul takes per-column scales only.
    if (dq.some((x) => x.no === NODE.attribute)) return;
    const dqInputs = dq.filter((x) => x.no === NODE.input).map(text);
    if (dqInputs.length !== 3) return;
    const name = text(n.find((x) => x.no === NODE.name));
    nodes[i] = bytesField(
      GRAPH.node,
      encodeMessage([
        textField(NODE.input, a),
        ...dqInputs.map((x) => textField(NODE.input, x)),
        ...n.filter((x) => x.no === NODE.output),
        textField(NODE.name, `${name}_int8`),
        textField(NODE.opType, 'DynamicQuantizeMatMul'),
        textField(NODE.domain, 'com.microsoft'),
      ]),
    );
    if (consumers.get(b!) === 1) drop.add(dqAt!);
    rewritten++;
  });
  nodes = nodes.filter((_, i) => !drop.has(i));
  return { graph: rewritten ? encodeMessage(nodes) : graph, rewritten };
}

function rewriteSubgraphs(node: Field): { node: Field; rewritten: number } {
  const fields = decodeMessage(node.value as Uint8Array);
  let sub = 0;
  const out = fields.map((f) => {
    if (f.no !== NODE.attribute) return f;
    const attr = decodeMessage(f.value as Uint8Array);
    let changed = false;
    const attrOut = attr.map((a) => {
      if (a.no !== ATTRIBUTE.g && a.no !== ATTRIBUTE.graphs) return a;
      const r = rewriteGraph(a.value as Uint8Array);
      if (!r.rewritten) return a;
      sub += r.rewritten;
      changed = true;
      return bytesField(a.no, r.graph);
    });
    return changed ? bytesField(f.no, encodeMessage(attrOut)) : f;
  });
  return { node: sub ? bytesField(GRAPH.node, encodeMessage(out)) : node, rewritten: sub };
}

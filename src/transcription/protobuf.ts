// A minimal Protocol Buffers wire-format reader and writer: enough to edit an ONNX model's graph
// (src/transcription/onnx-rewrite.ts) without a schema compiler. Fields keep their order and bytes;
// only the messages that are changed are encoded again.

/** One field of a message: varints as bigint, length-delimited and fixed-width fields as their bytes. */
export interface Field {
  no: number;
  wire: 0 | 1 | 2 | 5;
  value: bigint | Uint8Array;
}

export function decodeMessage(buf: Uint8Array): Field[] {
  const fields: Field[] = [];
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const b = buf[at++];
      if (b === undefined) throw new Error('protobuf: truncated varint');
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return result;
      shift += 7n;
    }
  };
  while (at < buf.length) {
    const key = Number(varint());
    const no = key >>> 3;
    const wire = key & 7;
    if (wire === 0) fields.push({ no, wire, value: varint() });
    else if (wire === 2) {
      const len = Number(varint());
      if (at + len > buf.length) throw new Error('protobuf: truncated field');
      fields.push({ no, wire, value: buf.subarray(at, at + len) });
      at += len;
    } else if (wire === 1 || wire === 5) {
      const len = wire === 1 ? 8 : 4;
      fields.push({ no, wire, value: buf.subarray(at, at + len) });
      at += len;
    } else throw new Error(`protobuf: unsupported wire type ${wire}`);
  }
  return fields;
}

function varintBytes(v: bigint): number[] {
  const out: number[] = [];
  let x = BigInt.asUintN(64, v);
  do {
    const b = Number(x & 0x7fn);
    x >>= 7n;
    out.push(x ? b | 0x80 : b);
  } while (x);
  return out;
}

export function encodeMessage(fields: readonly Field[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let size = 0;
  const push = (p: Uint8Array) => {
    parts.push(p);
    size += p.length;
  };
  for (const f of fields) {
    push(Uint8Array.from(varintBytes(BigInt((f.no << 3) | f.wire))));
    if (f.wire === 0) push(Uint8Array.from(varintBytes(f.value as bigint)));
    else {
      const bytes = f.value as Uint8Array;
      if (f.wire === 2) push(Uint8Array.from(varintBytes(BigInt(bytes.length))));
      push(bytes);
    }
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const utf8 = new TextDecoder();
const toUtf8 = new TextEncoder();

export const text = (f: Field | undefined): string => (f ? utf8.decode(f.value as Uint8Array) : '');
export const bytesField = (no: number, value: Uint8Array): Field => ({ no, wire: 2, value });
export const textField = (no: number, value: string): Field => bytesField(no, toUtf8.encode(value));

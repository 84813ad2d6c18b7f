import { openAsBlob } from 'node:fs';
import path from 'node:path';

export interface PostOptions {
  key?: string | null;
  file?: { path: string; name?: string; type?: string } | { blob: Blob; name: string };
  fields?: Record<string, string>;
}

/** Posts a recording to /v1/calls the way an integrator's HTTP client would (fetch + FormData). */
export async function postCall(base: string, opts: PostOptions) {
  const form = new FormData();
  for (const [k, v] of Object.entries(opts.fields ?? {})) form.append(k, v);
  if (opts.file) {
    if ('blob' in opts.file) form.append('file', opts.file.blob, opts.file.name);
    else {
      const blob = await openAsBlob(opts.file.path, { type: opts.file.type ?? '' });
      form.append('file', blob, opts.file.name ?? path.basename(opts.file.path));
    }
  }
  const headers: Record<string, string> = {};
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  const res = await fetch(`${base}/v1/calls`, { method: 'POST', body: form, headers });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body, headers: res.headers };
}

/** A zeroed buffer of `totalBytes` that starts with a valid 16 kHz mono 16-bit PCM WAV header (silence). */
export function wavBuffer(totalBytes: number): Buffer<ArrayBuffer> {
  const buf = Buffer.alloc(totalBytes);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(totalBytes - 8, 4);
  buf.write('WAVE', 8);
  buf.write('fmt ', 12);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(16000, 24);
  buf.writeUInt32LE(32000, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(totalBytes - 44, 40);
  return buf;
}

/** A tiny valid WAV (silence) of the given length in bytes, as a Blob. */
export function wavBlob(totalBytes = 4096): Blob {
  return new Blob([wavBuffer(totalBytes)], { type: 'audio/wav' });
}

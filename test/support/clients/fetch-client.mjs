// Node's fetch (undici) as an integrator's program meets it: one process, the cases given in a JSON
// file, one JSON line per case on stdout. Runs unchanged on Node 20, 22 and 24 (no TypeScript).
import { readFileSync } from 'node:fs';

const cases = JSON.parse(readFileSync(process.argv[2], 'utf8'));
for (const c of cases) {
  const bytes = readFileSync(c.file);
  const init = { method: 'POST', headers: c.headers };
  if (c.stall) {
    // The body's first bytes, then nothing: a client that stops sending (never closes the stream).
    init.body = new ReadableStream({ start: (ctl) => ctl.enqueue(new Uint8Array(bytes)) });
    init.duplex = 'half';
  } else init.body = bytes;
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const res = await fetch(c.url, init);
    const text = await res.text();
    console.log(JSON.stringify({ name: c.name, status: res.status, body: text.slice(0, 500), ms: ms() }));
  } catch (error) {
    const cause = error.cause ?? error;
    console.log(JSON.stringify({ name: c.name, error: `${cause.code ?? ''} ${cause.message}`.trim(), ms: ms() }));
  }
}
process.exit(0);

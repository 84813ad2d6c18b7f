// got (the service's own HTTP client library) in its own process; same protocol as fetch-client.mjs.
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import got from 'got';

const cases = JSON.parse(readFileSync(process.argv[2], 'utf8'));
for (const c of cases) {
  const bytes = readFileSync(c.file);
  // A stalled body: its first bytes, then a stream that never ends.
  const body = c.stall ? new Readable({ read() {} }) : bytes;
  if (c.stall) body.push(bytes);
  try {
    const res = await got.post(c.url, {
      body,
      headers: c.headers,
      throwHttpErrors: false,
      retry: { limit: 0 },
      timeout: { request: 60_000 },
    });
    console.log(JSON.stringify({ name: c.name, status: res.statusCode, body: res.body.slice(0, 500) }));
  } catch (error) {
    console.log(JSON.stringify({ name: c.name, error: `${error.code ?? ''} ${error.message}`.trim() }));
  }
}
process.exit(0);

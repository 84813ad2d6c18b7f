// Child of `npm run bench:intake`: the ceiling the service is compared with. node:http + busboy
// piping the `file` part to a temporary file and answering 201 — no auth, no hashing, no database.
// The file is removed once answered so repeated runs do not fill the disk.
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { serveParent, tellParent } from './lib.ts';

const dir = mkdtempSync(path.join(process.env.SINK_DIR ?? os.tmpdir(), 'escucha-sink-'));

function fail(res: http.ServerResponse, status: number, message: string) {
  if (res.headersSent) return void res.destroy();
  res
    .writeHead(status, { 'content-type': 'application/json', connection: 'close' })
    .end(JSON.stringify({ error: message }));
}

const server = http.createServer((req, res) => {
  if (req.method !== 'POST') return fail(res, 405, 'POST only');
  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers: req.headers });
  } catch {
    return fail(res, 400, 'not multipart');
  }
  const writes: Promise<void>[] = [];
  const paths: string[] = [];
  bb.on('file', (name, stream) => {
    if (name !== 'file') return void stream.resume();
    const p = path.join(dir, `${randomUUID()}.part`);
    paths.push(p);
    writes.push(pipeline(stream, createWriteStream(p)));
  });
  bb.on('error', (e: Error) => fail(res, 400, e.message));
  bb.on('close', () => {
    Promise.all(writes)
      .then(
        () => {
          if (!paths.length) return fail(res, 400, 'no file part');
          res
            .writeHead(201, { 'content-type': 'application/json' })
            .end(JSON.stringify({ id: randomUUID(), status: 'queued' }));
        },
        (e: Error) => fail(res, 500, e.message),
      )
      .finally(() => Promise.all(paths.map((p) => rm(p, { force: true }))));
  });
  req.pipe(bb);
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  serveParent(async () => {
    server.closeIdleConnections();
    await new Promise<void>((r) => server.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  });
  tellParent({ type: 'ready', url: `http://127.0.0.1:${port}` });
});

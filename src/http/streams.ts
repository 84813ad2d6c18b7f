import type { ServerResponse } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Logger } from '../log.ts';

/** True when a streamed response failed only because the client went away. */
export function isClientGone(error: unknown, res: ServerResponse): boolean {
  const code = (error as { code?: string } | null)?.code;
  return (
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    (res.destroyed && !res.writableFinished)
  );
}

/**
 * Streams `rows` through `csv` to the response. Its headers are gone by the time a failure comes, so
 * the truncated body is all that can signal it: the connection is cut rather than letting the client
 * believe a short file is complete. A client that went away is not an error.
 */
export async function streamCsv(res: ServerResponse, rows: Readable, csv: Transform, log: Logger, what: string) {
  try {
    await pipeline(rows, csv, res);
  } catch (error) {
    if (isClientGone(error, res)) return;
    log.error({ err: error }, `${what} failed mid-stream`);
    res.destroy();
  }
}

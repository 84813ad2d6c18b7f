import type { ServerResponse } from 'node:http';

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

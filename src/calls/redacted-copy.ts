import { mkdtemp, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import { REDACTED_EXTENSION, writeRedactedAudio } from '../redaction/audio.ts';
import type { RedactedSpan } from '../redaction/segments.ts';

/**
 * Writes the recording with the spans `spansIn` finds in it silenced next to the original in storage;
 * returns its key, size and the spans. It replaces the original only if the caller's commit does.
 */
export async function storeRedactedCopy(
  app: AppContext,
  call: { id: string; storageKey: string },
  spansIn: (file: string) => Promise<RedactedSpan[]>,
): Promise<{ key: string; bytes: number; spans: RedactedSpan[] }> {
  const key = `${call.storageKey.replace(/\.[^./]*$/, '')}.redacted${REDACTED_EXTENSION}`;
  const dir = await mkdtemp(path.join(app.config.tmpDir, 'redact-'));
  try {
    const out = path.join(dir, `${call.id}${REDACTED_EXTENSION}`);
    const spans = await app.storage.withLocalFile(call.storageKey, async (file) => {
      const spans = await spansIn(file);
      await writeRedactedAudio(app.config.decoder, file, out, spans);
      return spans;
    });
    const { size } = await stat(out);
    await app.storage.putFile(key, out);
    return { key, bytes: size, spans };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

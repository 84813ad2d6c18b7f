// The redacted copy of a recording: the spans found in the transcript are silenced and a 1 kHz
// beep marks each one, so a listener hears that something was removed rather than a gap that
// sounds like a dropped line. Opus in Ogg whatever the original format: every browser plays it,
// and one encoder we ship (libopus in the packaged ffmpeg) covers every input the intake accepts.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { DecoderPaths } from '../audio/binaries.ts';
import type { RedactedSpan } from './segments.ts';

const execFileAsync = promisify(execFile);

export const REDACTED_CONTENT_TYPE = 'audio/ogg';
export const REDACTED_EXTENSION = '.ogg';

/** ffmpeg's expression for "inside any span" (t in seconds). */
function inside(spans: readonly RedactedSpan[]): string {
  return spans.map((s) => `between(t,${s.start.toFixed(3)},${s.end.toFixed(3)})`).join('+');
}

/** Writes `output` (Ogg/Opus): `input` with every span silenced and marked by a tone. */
export async function writeRedactedAudio(
  decoder: DecoderPaths,
  input: string,
  output: string,
  spans: readonly RedactedSpan[],
): Promise<void> {
  const e = inside(spans);
  // amix halves each input; the speech and the tone never overlap, so doubling restores the level.
  // ffmpeg's sine source is 1/8 of full scale (−18 dBFS): about as loud as speech, plainly a beep.
  // `enable` is decided once per audio frame, and decoders hand out frames of up to ~0.1 s: cut into
  // 10 ms frames first, the silence starts within 10 ms of the span (measured: 50 ms late before).
  const graph =
    `[0:a]asetnsamples=n=160:p=0,volume=0:enable='${e}'[speech];` +
    `sine=frequency=1000:sample_rate=48000,volume=0:enable='not(${e})'[tone];` +
    '[speech][tone]amix=inputs=2:duration=first,volume=2[out]';
  await execFileAsync(
    decoder.ffmpeg,
    ['-hide_banner', '-loglevel', 'error', '-y', '-i', input, '-filter_complex', graph, '-map', '[out]'].concat([
      '-c:a',
      'libopus',
      '-b:a',
      '32k',
      '-f',
      'ogg',
      output,
    ]),
    { maxBuffer: 4 << 20 },
  );
}

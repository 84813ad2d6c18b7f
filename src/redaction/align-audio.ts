// Where the redacted words are in the recording: each segment holding a finding is read again from
// the file (its channel, its time range: the chunk it was recognised from) and the recognition
// engine times the words of what it heard there (TranscriptionEngine.alignChunk, the decoder's
// cross-attention: src/transcription/align.ts). Spans then follow the words (spansOf).
import type { Logger } from 'pino';
import type { DecoderPaths } from '../audio/binaries.ts';
import { openAudioStream, SAMPLE_RATE } from '../audio/decode.ts';
import type { Segment } from '../call-columns.ts';
import type { TranscriptionEngine, WordTiming } from '../transcription/engine.ts';
import { type RedactedPiece, type RedactedSpan, spansOf } from './segments.ts';

/** Segments longer than this are not aligned (no chunk is; the engines take ~30 s at most): silenced whole. */
const MAX_ALIGN_SECONDS = 40;

export interface AlignOptions {
  /** The recording the segments were heard in. */
  file: string;
  decoder: DecoderPaths;
  engines: readonly TranscriptionEngine[];
  language: string;
  /** The transcript as heard (before redaction). */
  segments: readonly Segment[];
  pieces: readonly RedactedPiece[];
  logger?: Pick<Logger, 'warn'>;
}

/** The spans to silence for `pieces`, from the words' timings in the audio. */
export async function alignedSpans(opts: AlignOptions): Promise<RedactedSpan[]> {
  const { segments, pieces, language } = opts;
  if (pieces.length === 0) return [];
  const engine = opts.engines.find((e) => e.alignChunk && e.languages.includes(language));
  const wanted = [...new Set(pieces.map((p) => p.segment))].filter(
    (i) => segments[i]!.end - segments[i]!.start <= MAX_ALIGN_SECONDS,
  );
  const timings = new Map<number, WordTiming[] | null>();
  if (engine?.alignChunk && wanted.length) {
    const audio = await readRanges(
      opts.file,
      opts.decoder,
      wanted.map((i) => segments[i]!),
    );
    for (const [k, i] of wanted.entries()) {
      try {
        timings.set(i, await engine.alignChunk(audio[k]!, language, segments[i]!.text));
      } catch (error) {
        // The segment is then silenced whole: a wider beep, never a leak.
        opts.logger?.warn({ err: error, segment: i }, 'redaction: words could not be timed');
        timings.set(i, null);
      }
    }
  }
  return spansOf(segments, pieces, timings);
}

/**
 * The samples of each range (16 kHz, its channel as transcription decoded it), read in one pass over
 * the file: a long call is never held whole.
 */
async function readRanges(
  file: string,
  decoder: DecoderPaths,
  ranges: readonly { start: number; end: number; channel: number }[],
): Promise<Float32Array[]> {
  const bounds = ranges.map((r) => [Math.floor(r.start * SAMPLE_RATE), Math.ceil(r.end * SAMPLE_RATE)] as const);
  const out = bounds.map(([a, b]) => new Float32Array(Math.max(0, b - a)));
  const last = Math.max(...bounds.map(([, b]) => b));
  const stream = await openAudioStream(file, { maxChannels: 2, decoder });
  let at = 0;
  for await (const block of stream.blocks) {
    const n = block[0]!.length;
    for (const [k, [a, b]] of bounds.entries()) {
      if (b <= at || a >= at + n) continue;
      const channel = block[Math.min(ranges[k]!.channel, block.length - 1)]!;
      const from = Math.max(a, at);
      const to = Math.min(b, at + n);
      out[k]!.set(channel.subarray(from - at, to - at), from - a);
    }
    at += n;
    // The rest of the file holds nothing wanted; leaving the loop stops the decoder.
    if (at >= last) break;
  }
  return out;
}

/**
 * The engine's phrase scoring (scorePhrases) over a stored recording, for judging criteria from the
 * audio (src/analysis/acoustic.ts). The recording is decoded once, as a stream: only the segments asked
 * about are kept, each until its scores are back, so a long call is never held whole.
 */
import type { AudioScorer } from '../analysis/acoustic.ts';
import type { DecoderPaths } from '../audio/binaries.ts';
import { openAudioStream, SAMPLE_RATE } from '../audio/decode.ts';
import type { TranscriptionEngine } from './engine.ts';

export function recordingScorer(
  file: string,
  engines: readonly TranscriptionEngine[],
  language: string,
  decoder?: DecoderPaths,
): AudioScorer | null {
  const engine = engines.find((e) => e.scorePhrases && e.languages.includes(language));
  if (!engine) return null;
  return {
    ...(engine.scoredTokens ? { tokens: (text: string) => engine.scoredTokens!(text) } : {}),
    async score(jobs, vocabulary) {
      const results: number[][] = jobs.map(() => []);
      if (!jobs.length) return results;
      const windows = jobs
        .map((job, i) => ({
          job: i,
          segment: job.segment,
          texts: job.texts,
          from: Math.max(0, Math.floor(job.segment.start * SAMPLE_RATE)),
          to: Math.ceil(job.segment.end * SAMPLE_RATE),
          samples: null as Float32Array | null,
          filled: 0,
        }))
        .sort((a, b) => a.from - b.from);
      const stream = await openAudioStream(file, decoder ? { decoder } : {});
      const inFlight = new Set<Promise<void>>();
      const parallel = Math.max(1, engine.parallelism ?? 1);
      const send = async (w: (typeof windows)[number]) => {
        const scoring = engine.scorePhrases!(w.samples!.subarray(0, w.filled), language, w.texts, vocabulary).then(
          (r) => {
            results[w.job] = r;
          },
        );
        w.samples = null;
        inFlight.add(scoring);
        scoring.then(
          () => inFlight.delete(scoring),
          () => {},
        );
        while (inFlight.size >= parallel) await Promise.race(inFlight);
      };
      let next = 0; // first window not yet complete
      let at = 0;
      for await (const block of stream.blocks) {
        const length = block[0]!.length;
        const end = at + length;
        for (let i = next; i < windows.length && windows[i]!.from < end; i++) {
          const w = windows[i]!;
          if (w.filled >= w.to - w.from) continue;
          const channel = block[Math.min(w.segment.channel, block.length - 1)]!;
          w.samples ??= new Float32Array(w.to - w.from);
          const from = Math.max(w.from, at);
          const to = Math.min(w.to, end);
          if (to > from) {
            w.samples.set(channel.subarray(from - at, to - at), from - w.from);
            w.filled = to - w.from;
          }
        }
        at = end;
        while (next < windows.length && windows[next]!.to <= at) await send(windows[next++]!);
      }
      // Segments running to the very end of the recording (rounding past its last sample).
      while (next < windows.length) {
        const w = windows[next++]!;
        if (w.samples && w.filled > 0) await send(w);
      }
      await Promise.all(inFlight);
      return results;
    },
  };
}

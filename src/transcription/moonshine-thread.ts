// One recognition thread of MoonshineThreads: its own Moonshine sessions, one chunk at a time.
// Loaded by Node itself (type stripping) or by tsx, so it uses only erasable TypeScript.
import { parentPort, workerData } from 'node:worker_threads';
import { OperatorFault } from '../audio/failure.ts';
import { type Encoded, MoonshineEngine, type MoonshineOptions } from './moonshine.ts';
import type { ChunkTranscript } from './engine.ts';
import type { WordTiming } from './align.ts';
import { detachBuffer } from './memory.ts';

export interface ChunkRequest {
  id: number;
  samples: Float32Array;
  language: string;
  vocabulary?: string[];
  /** ChunkOptions.speech. */
  speech?: boolean;
  /** Time the words of this text in the chunk instead of transcribing it (MoonshineEngine.alignChunk). */
  align?: string;
  /** Score these texts against the samples (MoonshineEngine.scorePhrases) instead of transcribing them. */
  score?: string[];
  /** The samples' encoder states, from the encoder thread (MoonshineOptions.encodedElsewhere). */
  encoded?: Encoded;
}

export type ChunkReply =
  | { id: number; result: ChunkTranscript | number[] }
  | { id: number; words: WordTiming[] }
  | { id: number; error: { message: string; stack?: string; operatorCheck?: string } };

const engine = new MoonshineEngine(workerData as MoonshineOptions);
// The engine keeps a vocabulary's token trie per array; a call's list arrives as a new copy with each
// chunk, so copies with the same words are mapped back to the first one seen.
const vocabularies = new Map<string, string[]>();
const VOCABULARIES_KEPT = 16;

function sameVocabulary(vocabulary: string[]): string[] {
  const key = vocabulary.join('\n');
  const known = vocabularies.get(key);
  if (known) return known;
  if (vocabularies.size >= VOCABULARIES_KEPT) vocabularies.delete(vocabularies.keys().next().value!);
  vocabularies.set(key, vocabulary);
  return vocabulary;
}

parentPort!.on('message', async (req: ChunkRequest) => {
  let reply: ChunkReply;
  try {
    if (req.score)
      reply = {
        id: req.id,
        result: await engine.scorePhrases(
          req.samples,
          req.language,
          req.score,
          req.vocabulary ? sameVocabulary(req.vocabulary) : undefined,
          req.encoded,
        ),
      };
    else if (req.align !== undefined)
      reply = { id: req.id, words: await engine.alignChunk(req.samples, req.language, req.align, req.encoded) };
    else {
      const options =
        req.vocabulary || req.speech
          ? {
              ...(req.vocabulary ? { vocabulary: sameVocabulary(req.vocabulary) } : {}),
              ...(req.speech ? { speech: true } : {}),
            }
          : undefined;
      reply = { id: req.id, result: await engine.transcribeChunk(req.samples, req.language, options, req.encoded) };
    }
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    reply = {
      id: req.id,
      error: {
        message: e.message,
        ...(e.stack ? { stack: e.stack } : {}),
        ...(e instanceof OperatorFault ? { operatorCheck: e.check } : {}),
      },
    };
  }
  parentPort!.postMessage(reply);
  // The chunk's samples and states were handed to this thread and are done with: freed now, not at the
  // thread's next collection (it allocates little on its own heap, so they piled up between collections).
  detachBuffer(req.samples);
  if (req.encoded) detachBuffer(req.encoded.data);
});

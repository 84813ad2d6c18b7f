// The encoder thread of batched recognition (MoonshineThreads with ASR_BATCH): the Moonshine encoders,
// one session per language, encoding chunks while the recognition thread steps the decoder. It imports
// only ONNX Runtime and ./memory.ts (no tokenizer, no graph rewriting) and runs without a TypeScript
// loader, so a thread costs little memory beside its models: erasable TypeScript only.
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';
import { detachBuffer } from './memory.ts';

export interface EncoderThreadData {
  modelsDir: string;
  /** The session options recognition gives its encoder (moonshine.ts' sessionOptions). */
  options: ort.InferenceSession.SessionOptions;
}

export interface EncodeRequest {
  id: number;
  samples: Float32Array;
  language: string;
}

export type EncodeReply =
  /** `sampleCount`: the length of the samples encoded (they were handed over, and are gone). */
  | { id: number; encoded: { data: Float32Array; dims: readonly number[] }; sampleCount: number }
  | { id: number; error: { message: string; stack?: string; operatorCheck?: string } };

const { modelsDir, options } = workerData as EncoderThreadData;
const sessions = new Map<string, Promise<ort.InferenceSession>>();
/** The last session asked for: one is built at a time, so two languages' load peaks do not add up. */
let loads: Promise<unknown> = Promise.resolve();

function encoder(language: string): Promise<ort.InferenceSession> {
  let session = sessions.get(language);
  if (!session) {
    session = loads.then(() =>
      ort.InferenceSession.create(path.join(modelsDir, `moonshine-base-${language}`, 'encoder_model.onnx'), options),
    );
    session.catch(() => sessions.delete(language));
    loads = session.catch(() => {});
    sessions.set(language, session);
  }
  return session;
}

parentPort!.on('message', async (req: EncodeRequest) => {
  try {
    let session: ort.InferenceSession;
    try {
      session = await encoder(req.language);
    } catch (err) {
      // As the recognition thread reports a model it cannot load: the operator's to fix, the call waits.
      const dir = path.join(modelsDir, `moonshine-base-${req.language}`);
      throw Object.assign(new Error(`The Moonshine model in ${dir} cannot be loaded: ${err}`), {
        operatorCheck: `engine:${req.language}`,
      });
    }
    const { last_hidden_state: hidden } = await session.run({
      input_values: new ort.Tensor('float32', req.samples, [1, req.samples.length]),
    });
    // A copy of its own, handed over: ONNX Runtime's output may not be a buffer that can be moved.
    const data = new Float32Array(hidden!.data as Float32Array);
    const sampleCount = req.samples.length;
    // ONNX Runtime's output and the samples handed to this thread, freed now rather than at the thread's
    // rare collections (it allocates little on its own heap, so they piled up between them).
    detachBuffer(hidden!.data as Float32Array);
    detachBuffer(req.samples);
    parentPort!.postMessage({ id: req.id, encoded: { data, dims: hidden!.dims }, sampleCount } satisfies EncodeReply, [
      data.buffer,
    ]);
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    const operatorCheck = (e as { operatorCheck?: string }).operatorCheck;
    parentPort!.postMessage({
      id: req.id,
      error: {
        message: e.message,
        ...(e.stack ? { stack: e.stack } : {}),
        ...(operatorCheck ? { operatorCheck } : {}),
      },
    } satisfies EncodeReply);
  }
});

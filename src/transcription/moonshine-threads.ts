import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { OperatorFault } from '../audio/failure.ts';
import type { ChunkOptions, ChunkTranscript, TranscriptionEngine, WordTiming } from './engine.ts';
import { UnsupportedLanguageError } from './engine.ts';
import { HeapTrimmer } from './heap-trim.ts';
import { type MoonshineOptions, moonshineLanguages, scoredTokens, sessionOptions } from './moonshine.ts';
import type { EncodeReply, EncodeRequest, EncoderThreadData } from './moonshine-encoder-thread.ts';
import type { ChunkReply, ChunkRequest } from './moonshine-thread.ts';
import { releaseMemory } from './memory.ts';

/** Default recognition threads: one per core, at most this many (each holds its own copy of the models). */
const MAX_DEFAULT_THREADS = 4;

export function defaultRecognitionThreads(): number {
  return Math.min(MAX_DEFAULT_THREADS, os.availableParallelism());
}

interface Task {
  request: ChunkRequest;
  /** Buffers handed over with the request (the samples, the encoder states). */
  transfer: ArrayBuffer[];
  /** With the request's kind of answer: a transcript, word timings for `align`, scores for `score`. */
  resolve: (answer: ChunkTranscript & WordTiming[] & number[]) => void;
  reject: (e: unknown) => void;
}

interface Thread {
  worker: Worker;
  /** Its tasks in flight, by request id (one, or with batching up to `batch`). */
  tasks: Map<number, Task>;
  /** Called when the thread's last task ends (close() waits on it). */
  onIdle?: () => void;
}

/**
 * Batched, a recognition thread holds two batches' worth of chunks: only chunks at the same step share a
 * decoder run, and with one batch in flight a chunk taking a finished one's place started, with the few
 * others that had come in, in a group of its own beside the first (bench:asr's 5-minute call: ~500 runs,
 * none above 4 chunks, half of them one chunk). With two, the next batch is encoded and waits while one
 * decodes, and starts full once it is done (StepBatcher.ready): about 350 runs on the same call, ~10 % less
 * CPU, the same words (docs/benchmarks/asr.md).
 */
const GROUPS_IN_FLIGHT = 2;

/**
 * Chunks the encoder thread holds at once: the next is there as soon as one is done (a reply and the
 * next request would otherwise cross the main thread, busy with the voice detector), and the others wait
 * in MoonshineThreads, to be taken longest first.
 */
const ENCODER_IN_FLIGHT = 2;

/** A chunk waiting for the encoder, and how many chunks that came after it have been taken before it. */
interface WaitingChunk {
  task: Task;
  passedOver: number;
}

/**
 * The index in `waiting` (in the order they came) of the chunk to encode next: the longest, ties to the
 * earlier. A chunk that later ones have passed over ENCODER_MAX_PASSED times goes next whatever its
 * length, so a short chunk of one call is not held back for ever by the long ones of calls beside it.
 */
export function longestWaiting(waiting: readonly WaitingChunk[]): number {
  const starved = waiting.findIndex((w) => w.passedOver >= ENCODER_MAX_PASSED);
  let pick = starved;
  if (pick < 0) {
    pick = 0;
    for (let i = 1; i < waiting.length; i++)
      if (waiting[i]!.task.request.samples.length > waiting[pick]!.task.request.samples.length) pick = i;
  }
  for (let i = 0; i < pick; i++) waiting[i]!.passedOver++;
  return pick;
}

/** See longestWaiting: two batches' worth of chunks (bench:asr's default). */
const ENCODER_MAX_PASSED = 16;

/** The recognition thread's young generation (V8's nursery), in MB. */
const RECOGNITION_YOUNG_GENERATION_MB = 16;

/** How long close() lets a chunk being recognised finish before stopping its thread anyway. */
const CLOSE_WAIT_MS = 30_000;

/**
 * Moonshine on a pool of worker threads, each with its own ONNX sessions. onnxruntime-node runs a model
 * synchronously on the JS thread that calls it, so the worker's JS thread stays free for its HTTP server,
 * heartbeats and the next block of audio. Unbatched (the default without `batch`), a thread per core
 * recognises one chunk at a time with one intra-op thread, each thread holding its own copy of the
 * models. Batched (`batch` ≥ 2, ASR_BATCH), one thread takes up to `groupsInFlight` × `batch` chunks at once
 * and runs their decoder steps together (StepBatcher), its sessions using the cores: one copy of the models
 * per process.
 * Threads start on first use, load the models on their first chunk, and do not keep the process alive
 * while idle.
 */
export class MoonshineThreads implements TranscriptionEngine {
  readonly name = 'moonshine';
  readonly languages: readonly string[];
  readonly detectsLanguage = false;
  /** Chunks recognised at the same time (transcribeFile keeps this many in flight). */
  readonly parallelism: number;
  /** Tasks one thread has in flight: with batching, the chunks whose decoder steps it runs together. */
  private readonly perThread: number;
  private readonly threadCount: number;
  private readonly options: MoonshineOptions;
  private readonly threads: Thread[] = [];
  /**
   * Batched, the encoder runs on a thread of its own (started on first use; its tasks are the chunks
   * being encoded): a recognition thread's ONNX runs are synchronous on its JavaScript thread, so there
   * the encoder and the decoder steps took turns, and a core idled whenever the beam search ran. Here the
   * next chunks are encoded while the decoder steps the ones in flight. Each model is still held once
   * (the encoders there, the decoders on the recognition thread), and the states are the same numbers.
   */
  private encoder: Thread | null = null;
  private readonly encodes: boolean;
  private readonly queue: Task[] = [];
  /** Batched: chunks waiting for the encoder thread (feedEncoder). */
  private readonly encodeWaiting: WaitingChunk[] = [];
  private nextId = 0;
  private closed = false;
  /**
   * Languages whose first chunk has come back (its models loaded). Then this (the service's main) thread's
   * heap is collected once, pages given back: start-up (the api's schema and routes, the first call's
   * decoding) left it at about 115 MiB committed, which V8 kept through the calls; collected, 77–80 MiB,
   * and the call's peak of the `npm start` process 23–30 MiB lower (docs/benchmarks/asr.md).
   */
  private readonly answered = new Set<string>();
  /** malloc trimmed while chunks are in flight (heap-trim.ts). */
  readonly trimmer = new HeapTrimmer(() => this.busy());

  /**
   * `encoderThread`: batched, run the encoder on a thread of its own (default) or on the recognition
   * thread between decoder steps (as before; about 80 MiB less peak RSS on bench:asr's 5-minute call).
   * `groupsInFlight`: batched, chunks a thread holds, in batches (GROUPS_IN_FLIGHT; 1 is the scheduling
   * before it, for bench:asr's comparison).
   */
  constructor(opts: MoonshineOptions & { threads?: number; encoderThread?: boolean; groupsInFlight?: number }) {
    const { threads, encoderThread = true, groupsInFlight = GROUPS_IN_FLIGHT, ...moonshine } = opts;
    const batch = moonshine.batch ?? 0;
    // Batched, one thread holds one copy of the weights and steps every chunk in flight at once, its
    // ONNX sessions using the cores (intra-op threads); unbatched, a thread per core, one chunk each.
    this.threadCount = Math.max(1, threads ?? (batch > 1 ? 1 : defaultRecognitionThreads()));
    this.perThread = batch > 1 ? Math.max(1, Math.round(batch * groupsInFlight)) : 1;
    this.parallelism = this.threadCount * this.perThread;
    this.languages = moonshine.languages ?? moonshineLanguages(moonshine.modelsDir);
    const intraOpThreads = batch > 1 ? Math.max(1, Math.floor(os.availableParallelism() / this.threadCount)) : 1;
    this.encodes = batch > 1 && encoderThread;
    this.options = { intraOpThreads, ...moonshine, languages: this.languages };
  }

  transcribeChunk(samples: Float32Array, language: string | null, chunk?: ChunkOptions): Promise<ChunkTranscript> {
    if (!language || !this.languages.includes(language))
      return Promise.reject(new UnsupportedLanguageError(language ?? 'auto', this.languages));
    if (this.closed) return Promise.reject(new Error('The recognition threads were closed'));
    return new Promise((resolve, reject) => {
      // A copy, handed over to the thread: the caller's array may be a view into a buffer it goes on using.
      const copy = new Float32Array(samples);
      const request: ChunkRequest = {
        id: this.nextId++,
        samples: copy,
        language,
        ...(chunk?.vocabulary?.length ? { vocabulary: [...chunk.vocabulary] } : {}),
        ...(chunk?.speech ? { speech: true } : {}),
      };
      this.enqueue({
        request,
        transfer: [copy.buffer],
        resolve: (answer) => {
          if (!this.answered.has(language)) {
            this.answered.add(language);
            releaseMemory();
          }
          resolve(answer as ChunkTranscript);
        },
        reject,
      });
    });
  }

  /** Word timings of `text` in `samples`, on the same threads and models as recognition. */
  alignChunk(samples: Float32Array, language: string, text: string): Promise<WordTiming[]> {
    if (!this.languages.includes(language))
      return Promise.reject(new UnsupportedLanguageError(language, this.languages));
    if (this.closed) return Promise.reject(new Error('The recognition threads were closed'));
    return new Promise((resolve, reject) => {
      const copy = new Float32Array(samples);
      this.enqueue({
        request: { id: this.nextId++, samples: copy, language, align: text },
        transfer: [copy.buffer],
        resolve: (answer) => resolve(answer as WordTiming[]),
        reject,
      });
    });
  }

  /** MoonshineEngine.scoredTokens: the tokenizer is the same on every thread. */
  scoredTokens(text: string): number {
    return scoredTokens(text);
  }

  /** MoonshineEngine.scorePhrases on a recognition thread (queued with the chunks). */
  scorePhrases(
    samples: Float32Array,
    language: string,
    texts: readonly string[],
    vocabulary?: readonly string[],
  ): Promise<number[]> {
    if (!this.languages.includes(language))
      return Promise.reject(new UnsupportedLanguageError(language, this.languages));
    if (this.closed) return Promise.reject(new Error('The recognition threads were closed'));
    return new Promise((resolve, reject) => {
      const copy = new Float32Array(samples);
      const request: ChunkRequest = {
        id: this.nextId++,
        samples: copy,
        language,
        score: [...texts],
        ...(vocabulary?.length ? { vocabulary: [...vocabulary] } : {}),
      };
      this.enqueue({ request, transfer: [copy.buffer], resolve, reject });
    });
  }

  /**
   * Stops every thread; chunks still waiting are rejected. A chunk being recognised is let finish
   * first (up to CLOSE_WAIT_MS): a thread stopped, or a process exiting, while ONNX Runtime runs a
   * model aborts the whole process (SIGABRT, "terminate called after throwing Napi::Error").
   */
  async close(): Promise<void> {
    this.closed = true;
    this.trimmer.stop();
    for (const task of [...this.queue.splice(0), ...this.encodeWaiting.splice(0).map((w) => w.task)])
      task.reject(new Error('The recognition threads were closed'));
    const all = this.encoder ? [...this.threads, this.encoder] : this.threads;
    const busy = all.filter((t) => t.tasks.size).map((t) => new Promise<void>((resolve) => (t.onIdle = resolve)));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(busy), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
    clearTimeout(timer);
    await Promise.all(this.threads.splice(0).map((t) => t.worker.terminate()));
    const encoder = this.encoder;
    this.encoder = null;
    await encoder?.worker.terminate();
  }

  /** A task to the queue of the recognition threads; batched, through the encoder thread first. */
  private enqueue(task: Task): void {
    this.trimmer.wake();
    if (!this.encodes) {
      this.queue.push(task);
      this.dispatch();
      return;
    }
    const { samples, language } = task.request;
    // A language without its model (or no audio) goes straight on: the recognition thread answers it as
    // it always has (a missing model is the operator's fault, with its readiness check).
    if (!samples.length || !moonshineLanguages(this.options.modelsDir).includes(language)) {
      this.queue.push(task);
      this.dispatch();
      return;
    }
    this.encodeWaiting.push({ task, passedOver: 0 });
    this.feedEncoder();
  }

  /**
   * Hands the encoder thread its next chunks, ENCODER_IN_FLIGHT at a time, the longest waiting first
   * (longestWaiting): the chunks of a call come faster than they are encoded, so most of them wait here,
   * and the last to be encoded — whose decode is what is left of the call once the encoder is done —
   * are then its shortest.
   */
  private feedEncoder(): void {
    while (this.encodeWaiting.length && (this.encoder?.tasks.size ?? 0) < ENCODER_IN_FLIGHT) {
      const { task } = this.encodeWaiting.splice(longestWaiting(this.encodeWaiting), 1)[0]!;
      const { id, samples, language } = task.request;
      this.encoder ??= this.startEncoder();
      this.encoder.tasks.set(id, task);
      this.encoder.worker.ref();
      // The samples (this engine's own copy) are handed over, not copied: past the encoder only their
      // length is read, so the recognition thread gets the states and that number (Encoded.sampleCount).
      // Copied, each chunk in flight was held twice more (here until its states came back, and in the
      // recognition thread until it was answered).
      this.encoder.worker.postMessage({ id, samples, language } satisfies EncodeRequest, task.transfer);
    }
  }

  /** The encoder thread (batched): see `encoder`. */
  private startEncoder(): Thread {
    const { asShipped, batch = 0 } = this.options;
    const workerData: EncoderThreadData = {
      modelsDir: this.options.modelsDir,
      // The encoder's session as the recognition thread made it (the same states, bit for bit: the words
      // of bench:asr's dense speech are the same with 1 and 2 intra-op threads), on half the cores: one
      // thread took 166 ms of CPU per 6 s chunk where two took 201, and the decoder keeps the other core.
      options: sessionOptions(Math.max(1, Math.floor(os.availableParallelism() / 2)), !asShipped, batch > 1),
    };
    const worker = new Worker(new URL('./moonshine-encoder-thread.ts', import.meta.url), {
      workerData,
      // Erasable TypeScript importing only ONNX Runtime: Node's own type stripping loads it, without the
      // memory a TypeScript loader (tsx, in scripts and tests) would take in the thread.
      execArgv: withoutHeapOptions(withoutPreloads(process.execArgv)),
    });
    const thread: Thread = { worker, tasks: new Map() };
    worker.on('message', (reply: EncodeReply) => {
      const task = this.take(thread, reply.id);
      if (!task) return;
      if ('error' in reply) return task.reject(threadError(reply.error));
      if (this.closed) return task.reject(new Error('The recognition threads were closed'));
      // The recognition thread's batcher holds a chunk that would start alone while another is on its way
      // (StepBatcher.holdForCompanion); with several recognition threads, the next may go to another one.
      // Only chunks to transcribe start decodes (words to time and phrases to score do not).
      const sameLanguage = (t: Task) =>
        t.request.language === task.request.language && t.request.align === undefined && !t.request.score;
      const following =
        this.threadCount === 1
          ? this.encodeWaiting.filter((w) => sameLanguage(w.task)).length +
            [...thread.tasks.values()].filter(sameLanguage).length
          : 0;
      const request: ChunkRequest = {
        ...task.request,
        samples: new Float32Array(0),
        encoded: { ...reply.encoded, sampleCount: reply.sampleCount, following },
      };
      this.queue.push({ ...task, request, transfer: [reply.encoded.data.buffer as ArrayBuffer] });
      this.dispatch();
    });
    worker.on('message', () => this.feedEncoder());
    // An encoder thread that dies fails the chunks it was encoding; the next chunk starts a new one.
    const lost = (err: Error) => {
      if (thread !== this.encoder) return;
      this.encoder = null;
      for (const task of thread.tasks.values()) task.reject(err);
      thread.tasks.clear();
      thread.onIdle?.();
      // The chunks waiting their turn go to a new encoder thread.
      this.feedEncoder();
    };
    worker.on('error', (err) => lost(new Error(`The encoder thread failed: ${err.message}`, { cause: err })));
    worker.on('exit', (code) => lost(new Error(`The encoder thread stopped (exit code ${code})`)));
    return thread;
  }

  /** Whether any chunk is waiting or being worked on. */
  private busy(): boolean {
    return (
      this.queue.length > 0 ||
      this.encodeWaiting.length > 0 ||
      (this.encoder?.tasks.size ?? 0) > 0 ||
      this.threads.some((t) => t.tasks.size > 0)
    );
  }

  /** The task a thread answered, taken off its list; an idle thread stops keeping the process alive. */
  private take(thread: Thread, id: number): Task | undefined {
    const task = thread.tasks.get(id);
    if (!task) return undefined;
    thread.tasks.delete(id);
    if (!thread.tasks.size) {
      thread.onIdle?.();
      // An idle thread must not keep a finished process alive; one with a chunk must (the caller waits on it).
      thread.worker.unref();
    }
    return task;
  }

  private dispatch(): void {
    while (this.queue.length) {
      // An idle thread first, then a new one, then the least busy one with room.
      let thread = this.threads.find((t) => !t.tasks.size);
      if (!thread && this.threads.length < this.threadCount) thread = this.start();
      thread ??= this.threads
        .filter((t) => t.tasks.size < this.perThread)
        .sort((a, b) => a.tasks.size - b.tasks.size)[0];
      if (!thread) return;
      const task = this.queue.shift()!;
      thread.tasks.set(task.request.id, task);
      thread.worker.ref();
      thread.worker.postMessage(task.request, task.transfer);
    }
  }

  private start(): Thread {
    const worker = new Worker(new URL('./moonshine-thread.ts', import.meta.url), {
      // V8 grew the thread's young generation to 64–130 MB while recognising (ONNX Runtime's promises and
      // tensors live across a few collections), for 20–25 MB live: bench:asr's 5-minute call, heap 149 →
      // 29–38 MB and peak RSS −46 MiB with a cap, the same CPU per audio second.
      resourceLimits: { maxYoungGenerationSizeMb: RECOGNITION_YOUNG_GENERATION_MB },
      workerData: {
        ...this.options,
        ...(this.encodes ? { encodedElsewhere: true } : {}),
      },
      // The thread loads TypeScript the way this process does (tsx's --import, or Node's own type
      // stripping); --input-type is only for an -e script and would stop a file thread from starting.
      execArgv: withoutHeapOptions(
        process.execArgv.filter((a, i, all) => !a.startsWith('--input-type') && all[i - 1] !== '--input-type'),
      ),
    });
    const thread: Thread = { worker, tasks: new Map() };
    worker.on('message', (reply: ChunkReply) => {
      const task = this.take(thread, reply.id);
      if (!task) return;
      if ('result' in reply) task.resolve(reply.result as ChunkTranscript & WordTiming[] & number[]);
      else if ('words' in reply) task.resolve(reply.words as ChunkTranscript & WordTiming[] & number[]);
      else task.reject(threadError(reply.error));
      this.dispatch();
    });
    // A thread that dies (out of memory, a native crash) fails only the chunks it had; the next chunk starts a new one.
    const lost = (err: Error) => {
      const i = this.threads.indexOf(thread);
      if (i < 0) return;
      this.threads.splice(i, 1);
      for (const task of thread.tasks.values()) task.reject(err);
      thread.tasks.clear();
      thread.onIdle?.();
      this.dispatch();
    };
    worker.on('error', (err) => lost(new Error(`A recognition thread failed: ${err.message}`, { cause: err })));
    worker.on('exit', (code) => lost(new Error(`A recognition thread stopped (exit code ${code})`)));
    this.threads.push(thread);
    return thread;
  }
}

/** Node's options without the modules it preloads (a TypeScript loader) and without --input-type. */
function withoutPreloads(args: readonly string[]): string[] {
  const takesValue = ['--import', '--require', '-r', '--loader', '--experimental-loader', '--input-type'];
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (takesValue.includes(a)) i++;
    else if (!takesValue.some((flag) => a.startsWith(`${flag}=`))) out.push(a);
  }
  return out;
}

/** V8's heap sizes, which the process's main thread has (src/service/allocator.ts) and a thread may not. */
const HEAP_OPTIONS = ['--max-semi-space-size', '--min-semi-space-size', '--max-old-space-size', '--max-heap-size'];

/**
 * Node's options without V8's heap sizes: Node refuses them in a thread's execArgv
 * (ERR_WORKER_INVALID_EXEC_ARGV); a thread's heap is sized by its resourceLimits.
 */
export function withoutHeapOptions(args: readonly string[]): string[] {
  const name = (a: string) => a.split('=')[0]!.replace(/_/g, '-');
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!HEAP_OPTIONS.includes(name(a))) out.push(a);
    // `--max-old-space-size 512`: its value goes too.
    else if (!a.includes('=') && /^\d+$/.test(args[i + 1] ?? '')) i++;
  }
  return out;
}

/** The thread's error as the caller would have met it in its own thread (OperatorFault keeps its check). */
function threadError(e: { message: string; stack?: string; operatorCheck?: string }): Error {
  const error = e.operatorCheck ? new OperatorFault(e.operatorCheck, e.message) : new Error(e.message);
  if (e.stack) error.stack = e.stack;
  return error;
}

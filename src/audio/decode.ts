import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { TranscriptionFailure } from './failure.ts';
import { type DecoderPaths, ffmpegDecoders, resolveDecoder } from './binaries.ts';

const execFileAsync = promisify(execFile);

export const SAMPLE_RATE = 16000;
const DEFAULT_MAX_SECONDS = 4 * 3600;

export interface AudioInfo {
  durationSeconds: number;
  channels: number;
  codec?: string;
  /** ffprobe's container name, e.g. 'mp3', 'mov,mp4,m4a,3gp,3g2,mj2', 'amr'. */
  container?: string;
}

export interface DecodedAudio {
  sampleRate: typeof SAMPLE_RATE;
  /** One array per channel, samples in [-1, 1]. */
  channels: Float32Array[];
  durationSeconds: number;
}

export interface DecodeOptions {
  /** Channels kept; more are downmixed by ffmpeg (default 2). */
  maxChannels?: number;
  /** Longer recordings throw TooLongError (default 4 h). */
  maxDurationSeconds?: number;
  /** ffmpeg and ffprobe to run (default: the ones from the npm packages). */
  decoder?: DecoderPaths;
}

export class UndecodableAudioError extends TranscriptionFailure {
  constructor(message: string, options?: ErrorOptions) {
    super('undecodable', message, options);
  }
}

export class TooLongError extends TranscriptionFailure {
  declare durationSeconds: number;
  constructor(durationSeconds: number, maxSeconds: number) {
    super('too_long', `Recording lasts ${Math.round(durationSeconds)} s, more than the ${maxSeconds} s allowed`);
    this.durationSeconds = durationSeconds;
  }
}

interface FfprobeOutput {
  streams?: { codec_name?: string; channels?: number; duration?: string }[];
  format?: { duration?: string; format_name?: string };
}

export async function probeAudio(path: string, decoder: DecoderPaths = resolveDecoder()): Promise<AudioInfo> {
  let stdout: string;
  try {
    ({ stdout } = await execFileAsync(
      decoder.ffprobe,
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '-select_streams', 'a', '--', path],
      { maxBuffer: 4 << 20 },
    ));
  } catch (err) {
    // Only ffprobe's own verdict (it ran and exited non-zero) says the file is bad; a missing
    // binary, a missing file or exhausted descriptors are our faults and must be retried.
    if (typeof (err as { code?: unknown }).code !== 'number') throw err;
    throw new UndecodableAudioError(`ffprobe cannot read the file: ${stderrOf(err)}`, { cause: err });
  }
  const info = JSON.parse(stdout) as FfprobeOutput;
  const stream = info.streams?.[0];
  if (!stream) throw new UndecodableAudioError('The file has no audio stream');
  // Raw streams (AMR, ADTS) often lack a container duration; ffprobe still estimates one per stream.
  const duration = Number(info.format?.duration ?? stream.duration ?? NaN);
  return {
    durationSeconds: Number.isFinite(duration) ? duration : 0,
    channels: stream.channels ?? 1,
    ...(stream.codec_name ? { codec: stream.codec_name } : {}),
    ...(info.format?.format_name ? { container: info.format.format_name } : {}),
  };
}

/** Decodes any ffmpeg-readable audio to 16 kHz float PCM, one Float32Array per channel (mono stays mono). */
export async function decodeAudio(path: string, opts: DecodeOptions = {}): Promise<DecodedAudio> {
  const stream = await openAudioStream(path, opts);
  // Per-channel arrays sized from the probed duration, so a call is held once as float32.
  const out = new ChannelWriter(stream.info.channels, Math.ceil((stream.info.durationSeconds + 1) * SAMPLE_RATE));
  for await (const block of stream.blocks) out.append(block);
  return { sampleRate: SAMPLE_RATE, channels: out.finish(), durationSeconds: out.frames / SAMPLE_RATE };
}

export interface AudioStream {
  /** Probed facts; `channels` is the number of channels decoded (after downmixing to `maxChannels`). */
  info: AudioInfo;
  /**
   * Blocks of at most `blockSeconds`, one Float32Array per channel, in order. The arrays are fresh for each
   * block (the consumer may keep them). Reading is paced by the consumer: ffmpeg waits on the pipe, so memory
   * stays bounded however long the call. Throws TooLongError / UndecodableAudioError like decodeAudio.
   */
  blocks: AsyncGenerator<Float32Array[]>;
}

/** Opens a decoder process on `path` and reads it block by block: a long call is never held whole. */
export async function openAudioStream(
  path: string,
  opts: DecodeOptions & { blockSeconds?: number } = {},
): Promise<AudioStream> {
  const maxSeconds = opts.maxDurationSeconds ?? DEFAULT_MAX_SECONDS;
  const decoder = opts.decoder ?? resolveDecoder();
  const info = await probeAudio(path, decoder);
  if (info.durationSeconds > maxSeconds) throw new TooLongError(info.durationSeconds, maxSeconds);
  const channelCount = Math.max(1, Math.min(info.channels, opts.maxChannels ?? 2));
  const blockFrames = Math.round((opts.blockSeconds ?? 10) * SAMPLE_RATE);
  return {
    info: { ...info, channels: channelCount },
    blocks: readBlocks(path, info, channelCount, maxSeconds, blockFrames, decoder),
  };
}

async function* readBlocks(
  path: string,
  info: AudioInfo,
  channelCount: number,
  maxSeconds: number,
  blockFrames: number,
  decoder: DecoderPaths,
): AsyncGenerator<Float32Array[]> {
  const [command, args] = await decoderCommand(path, info, channelCount, decoder.ffmpeg);
  const ff = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  ff.stderr.setEncoding('utf8').on('data', (d: string) => {
    if (stderr.length < 4000) stderr += d;
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    ff.on('error', reject);
    ff.on('close', resolve);
  });
  // Awaited after the output is read; handled now so a failed spawn cannot crash the process.
  exited.catch(() => {});

  const maxFrames = Math.ceil(maxSeconds * SAMPLE_RATE);
  const pending = new ChannelWriter(channelCount, blockFrames);
  let frames = 0;
  let tooLong = false;
  let finished = false;
  try {
    for await (const chunk of ff.stdout as AsyncIterable<Buffer>) {
      frames += pending.push(chunk);
      if (frames > maxFrames) {
        tooLong = true;
        break;
      }
      while (pending.frames >= blockFrames) yield pending.take(blockFrames);
    }
    if (!tooLong) {
      const code = await exited;
      if (code !== 0)
        throw new UndecodableAudioError(`${command} cannot decode the file: ${stderr.trim() || `exit ${code}`}`);
      if (frames === 0) throw new UndecodableAudioError('The audio stream decodes to no samples');
      if (pending.frames > 0) yield pending.take(pending.frames);
      finished = true;
    }
  } finally {
    ff.stdout.destroy();
    // A consumer that stops early (or an error) must not leave the decoder running.
    if (!finished && ff.exitCode === null) ff.kill('SIGKILL');
  }
  if (tooLong) throw new TooLongError(frames / SAMPLE_RATE, maxSeconds);
}

// Phones record AMR with DTX (comfort-noise frames during pauses). FFmpeg's native AMR decoder skips
// those frames, which shortens the timeline and shifts every later segment; libopencore's decoder
// (inside the npm ffmpeg build) keeps them. A system ffmpeg without libopencore (Debian's) falls back
// to sox, which decodes raw .amr through libopencore too (AMR inside 3GP/MP4 stays with ffmpeg).
async function decoderCommand(
  path: string,
  info: AudioInfo,
  channels: number,
  ffmpeg: string,
): Promise<[string, string[]]> {
  const rawAmr = info.container === 'amr' && (info.codec === 'amr_nb' || info.codec === 'amr_wb');
  const output = ['-map', '0:a:0', '-vn', '-ac', String(channels), '-ar', String(SAMPLE_RATE), '-f', 'f32le', 'pipe:1'];
  if (!rawAmr) return [ffmpeg, ['-nostdin', '-v', 'error', '-i', path, ...output]];
  const opencore = info.codec === 'amr_nb' ? 'libopencore_amrnb' : 'libopencore_amrwb';
  if ((await ffmpegDecoders(ffmpeg)).has(opencore))
    return [ffmpeg, ['-nostdin', '-v', 'error', '-c:a', opencore, '-i', path, ...output]];
  const type = info.codec === 'amr_nb' ? 'amr-nb' : 'amr-wb';
  return [
    'sox',
    [
      '-V1',
      '-t',
      type,
      path,
      '-t',
      'raw',
      '-e',
      'floating-point',
      '-b',
      '32',
      '-L',
      '-r',
      String(SAMPLE_RATE),
      '-c',
      String(channels),
      '-',
    ],
  ];
}

/** De-interleaves f32le frames as they arrive, carrying partial frames across chunk boundaries. */
class ChannelWriter {
  frames = 0;
  private buffers: Float32Array[];
  private carry = Buffer.alloc(0);
  private readonly count: number;
  private readonly frameBytes: number;

  constructor(count: number, initialFrames: number) {
    this.count = count;
    this.frameBytes = 4 * count;
    this.buffers = Array.from({ length: count }, () => new Float32Array(Math.max(1, initialFrames)));
  }

  /** Adds interleaved bytes; returns the whole frames added. */
  push(chunk: Buffer): number {
    const data = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    const frames = Math.floor(data.length / this.frameBytes);
    this.ensure(this.frames + frames);
    for (let f = 0; f < frames; f++) {
      const base = f * this.frameBytes;
      for (let c = 0; c < this.count; c++) this.buffers[c]![this.frames + f] = data.readFloatLE(base + 4 * c);
    }
    this.frames += frames;
    this.carry = Buffer.from(data.subarray(frames * this.frameBytes));
    return frames;
  }

  /** Adds de-interleaved frames (one array per channel). */
  append(block: Float32Array[]): void {
    const n = block[0]!.length;
    this.ensure(this.frames + n);
    for (const [c, b] of block.entries()) this.buffers[c]!.set(b, this.frames);
    this.frames += n;
  }

  /** Removes and returns the first `n` frames as fresh arrays. */
  take(n: number): Float32Array[] {
    const out = this.buffers.map((b) => b.slice(0, n));
    for (const b of this.buffers) b.copyWithin(0, n, this.frames);
    this.frames -= n;
    return out;
  }

  finish(): Float32Array[] {
    return this.buffers.map((b) => b.subarray(0, this.frames));
  }

  private ensure(frames: number): void {
    if (frames <= this.buffers[0]!.length) return;
    const size = Math.max(frames, Math.ceil(this.buffers[0]!.length * 1.5));
    this.buffers = this.buffers.map((b) => {
      const grown = new Float32Array(size);
      grown.set(b.subarray(0, this.frames));
      return grown;
    });
  }
}

function stderrOf(err: unknown): string {
  const stderr = (err as { stderr?: unknown }).stderr;
  return typeof stderr === 'string' && stderr.trim() ? stderr.trim().slice(0, 500) : String(err);
}

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { type DecoderPaths, resolveDecoder } from './audio/binaries.ts';
import { parseStorageUrl, type S3Settings } from './storage/s3-settings.ts';
import { resolveModelsDir } from './transcription/models.ts';
import { DEFAULT_BATCH, DEFAULT_BEAM, DEFAULT_BIAS_BOOST } from './transcription/beam.ts';
import { DEFAULT_DENOISE } from './transcription/transcribe.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z.url({ message: 'DATABASE_URL must be a postgres:// URL' }).optional(),
  DATABASE_DIRECT_URL: z.url({ message: 'DATABASE_DIRECT_URL must be a postgres:// URL' }).optional(),
  DATA_DIR: z.string().default(path.join(repoRoot, '.data')),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url().optional(),
  APP_SECRET: z.string().min(32, 'APP_SECRET must be at least 32 characters (e.g. `openssl rand -hex 32`)').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  WORKER_STALE_SECONDS: z.coerce.number().min(1).default(60),
  STORAGE_DIR: z.string().optional(),
  STORAGE_URL: z
    .string()
    .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/, 'STORAGE_URL must look like s3://bucket/prefix')
    .optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool.optional(),
  MODELS_DIR: z.string().optional(),
  TRANSCRIPTION_ENGINE: z.enum(['moonshine', 'openai']).default('moonshine'),
  MOONSHINE_LANGUAGES: z
    .string()
    .regex(/^\s*([a-z]{2}(\s*,\s*[a-z]{2})*)?\s*$/, 'MOONSHINE_LANGUAGES is a comma-separated list such as en,es')
    .optional(),
  FFMPEG_PATH: z.string().min(1).optional(),
  FFPROBE_PATH: z.string().min(1).optional(),
  OPERATOR_RETRY_MAX_SECONDS: z.coerce.number().min(1).default(300),
  ASR_BEAM: z.coerce
    .number()
    .int()
    .min(1, 'ASR_BEAM is a beam width of 1 (greedy) to 8')
    .max(8, 'ASR_BEAM is a beam width of 1 (greedy) to 8')
    .default(DEFAULT_BEAM),
  ASR_THREADS: z.coerce
    .number()
    .int()
    .min(1, 'ASR_THREADS is a number of recognition threads, 1 to 32')
    .max(32, 'ASR_THREADS is a number of recognition threads, 1 to 32')
    .optional(),
  ASR_BATCH: z.coerce
    .number()
    .int()
    .min(0, 'ASR_BATCH is a number of chunks decoded together, 0 (off) to 16')
    .max(16, 'ASR_BATCH is a number of chunks decoded together, 0 (off) to 16')
    .default(DEFAULT_BATCH),
  // Batched, the encoder runs on a thread of its own beside the recognition thread: faster on long calls,
  // about 70-120 MiB more at peak (docs/benchmarks/asr.md); `0` keeps it on the recognition thread.
  ASR_ENCODER_THREAD: z.enum(['0', '1', 'true', 'false']).default('1'),
  ASR_BIAS_BOOST: z.coerce
    .number()
    .min(0)
    .max(10, 'ASR_BIAS_BOOST is in nats per token, 0 to 10')
    .default(DEFAULT_BIAS_BOOST),
  ASR_DENOISE: z.enum(['auto', 'on', 'off'], 'ASR_DENOISE is auto, on or off').default(DEFAULT_DENOISE),
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).default(30),
  OPENAI_TRANSCRIBE_URL: z.url().optional(),
  OPENAI_TRANSCRIBE_KEY: z.string().optional(),
  OPENAI_TRANSCRIBE_MODEL: z.string().default('whisper-1'),
  LLM_URL: z.url().optional(),
  LLM_KEY: z.string().optional(),
  LLM_MODEL: z.string().default('gpt-4o-mini'),
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'WEBHOOK_RETRY_SCHEDULE is a comma-separated list of milliseconds')
    .optional(),
  WEBHOOK_SECRET_OVERLAP_HOURS: z.coerce.number().min(0).max(720).default(24),
  WEBHOOK_DISABLE_AFTER_DAYS: z.coerce.number().min(0.001).max(365).default(5),
  INTAKE_RATE_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  SECURE_COOKIES: bool.optional(),
  TRUST_PROXY: bool.default(false),
  GRAPHQL_MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  GRAPHQL_INTROSPECTION: z.enum(['on', 'off']).optional(),
  MIN_FREE_DISK_MB: z.coerce.number().min(0).default(200),
  INTAKE_IDLE_TIMEOUT_SECONDS: z.coerce.number().min(1).default(30),
  INTAKE_MIN_BYTES_PER_SECOND: z.coerce.number().min(0).default(1024),
  INTAKE_MIN_RATE_WINDOW_SECONDS: z.coerce.number().min(1).default(60),
  INTAKE_MAX_CONCURRENT_PER_KEY: z.coerce.number().int().min(1).default(10),
  INTAKE_LEASE_SECONDS: z.coerce.number().min(1).default(60),
});

export type Env = z.input<typeof EnvSchema>;

export interface Config {
  env: 'development' | 'production' | 'test';
  databaseUrl: string | undefined;
  /**
   * The same database without a pooler in between, for what needs a session of its own (LISTEN,
   * graphile-worker, migrations' advisory lock). Set, it also says `databaseUrl` is a transaction
   * pooler: no named prepared statements there. Null: `databaseUrl` is direct.
   */
  databaseDirectUrl: string | null;
  dataDir: string;
  /** Embedded PostgreSQL's port; null = 54329, or a free one when that is taken. */
  embeddedPgPort: number | null;
  host: string;
  port: number;
  /** Public address of the service, without trailing slash; `{base_url}` is this plus `/v1`. */
  publicUrl: string;
  appSecret: string;
  logLevel: string;
  workerConcurrency: number;
  /** A worker silent this long is presumed dead; its jobs are retried by others. */
  workerStaleSeconds: number;
  /** Local recording folder (the default storage) and home of `tmpDir` with either driver. */
  storageDir: string;
  /** Where recordings live: STORAGE_DIR, or the S3-compatible bucket of STORAGE_URL. */
  storage: { kind: 'local' } | ({ kind: 's3' } & S3Settings);
  tmpDir: string;
  modelsDir: string;
  /** ffmpeg / ffprobe: FFMPEG_PATH / FFPROBE_PATH, else the npm packages' binaries. */
  decoder: DecoderPaths;
  transcription: {
    engine: 'moonshine' | 'openai';
    /** Languages transcribed by local Moonshine models; the others go to the API when one is set. */
    moonshineLanguages: string[];
    /** Beam width of local decoding (ASR_BEAM) and the boost per token of vocabulary words (ASR_BIAS_BOOST). */
    beam: number;
    biasBoost: number;
    /** Recognition threads per worker process (ASR_THREADS); null = one when batching, else one per core, at most 4. */
    threads: number | null;
    /** Chunks decoded together per decoder step (ASR_BATCH); 0 or 1 = each alone. */
    batch: number;
    /** Batched, the encoder on a thread of its own (ASR_ENCODER_THREAD). */
    encoderThread: boolean;
    /** Noise suppression before recognition (ASR_DENOISE): per call by its SNR estimate, always, or never. */
    denoise: 'auto' | 'on' | 'off';
    openai: { baseUrl: string; apiKey: string | undefined; model: string } | null;
  };
  /** A call waiting for the operator (missing model, decoder, API down) is retried at most this far apart. */
  operatorRetryMaxSeconds: number;
  /** Bearer token /metrics asks for; null = open. */
  metricsToken: string | null;
  /** How long SIGTERM waits for uploads in flight before closing their connections. */
  shutdownGraceSeconds: number;
  llm: { baseUrl: string; apiKey: string | undefined; model: string } | null;
  webhookAllowPrivate: boolean;
  /** Waits between webhook attempts; null = docs/api/product-decisions.md's schedule (5 s … 10 h). */
  webhookRetryScheduleMs: number[] | null;
  /** After a rotation the previous secret also signs deliveries for this long. */
  webhookSecretOverlapHours: number;
  /** An endpoint failing every attempt for this long is disabled. */
  webhookDisableAfterDays: number;
  intakeRatePerMinute: number;
  secureCookies: boolean;
  /** Behind a reverse proxy: the client address is the first of X-Forwarded-For. */
  trustProxy: boolean;
  /** A GraphQL request body above this answers 413 `payload_too_large`. */
  graphqlMaxBodyBytes: number;
  /** Schema introspection for visitors who are not signed in (always on outside production). */
  graphqlIntrospection: boolean;
  /** Intake refuses uploads (507) while the storage or temporary folder has less free space than this. */
  minFreeDiskMb: number;
  intake: {
    /** An upload that sends nothing for this long is answered 408 and its temporary file removed. */
    idleTimeoutMs: number;
    /** …as is one that averages less than this over `minRateWindowMs`. */
    minBytesPerSecond: number;
    minRateWindowMs: number;
    maxConcurrentPerKey: number;
    /** How long an upload's slot of that cap outlives its api process's last renewal (a process that died). */
    leaseMs: number;
  };
}

export class ConfigError extends Error {}

/** Parses the environment once; throws a ConfigError naming each variable to fix. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  if (e.TRANSCRIPTION_ENGINE === 'openai' && !e.OPENAI_TRANSCRIBE_URL) {
    throw new ConfigError('TRANSCRIPTION_ENGINE=openai needs OPENAI_TRANSCRIBE_URL (e.g. https://api.openai.com/v1)');
  }
  if (!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY) {
    throw new ConfigError(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (or neither, for the AWS default chain)',
    );
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    env: e.NODE_ENV,
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL ?? null,
    dataDir,
    embeddedPgPort: e.EMBEDDED_PG_PORT ?? null,
    host: e.HOST,
    port: e.PORT,
    publicUrl,
    appSecret: e.APP_SECRET ?? devSecret(e.NODE_ENV, dataDir),
    logLevel: e.LOG_LEVEL,
    workerConcurrency: e.WORKER_CONCURRENCY,
    workerStaleSeconds: e.WORKER_STALE_SECONDS,
    storageDir: path.resolve(e.STORAGE_DIR ?? path.join(dataDir, 'recordings')),
    storage: e.STORAGE_URL
      ? {
          kind: 's3',
          ...parseStorageUrl(e.STORAGE_URL),
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          credentials: e.S3_ACCESS_KEY_ID
            ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY! }
            : undefined,
          // Self-hosted stores rarely have a wildcard DNS name per bucket; AWS itself prefers virtual hosts.
          forcePathStyle: e.S3_FORCE_PATH_STYLE ?? Boolean(e.S3_ENDPOINT),
        }
      : { kind: 'local' },
    tmpDir: path.join(path.resolve(e.STORAGE_DIR ?? path.join(dataDir, 'recordings')), '.incoming'),
    modelsDir: resolveModelsDir(source),
    decoder: resolveDecoder(e),
    transcription: {
      engine: e.TRANSCRIPTION_ENGINE,
      moonshineLanguages: (e.MOONSHINE_LANGUAGES ?? (e.TRANSCRIPTION_ENGINE === 'openai' ? '' : 'en,es'))
        .split(',')
        .map((l) => l.trim())
        .filter(Boolean),
      beam: e.ASR_BEAM,
      biasBoost: e.ASR_BIAS_BOOST,
      threads: e.ASR_THREADS ?? null,
      batch: e.ASR_BATCH,
      encoderThread: e.ASR_ENCODER_THREAD === '1' || e.ASR_ENCODER_THREAD === 'true',
      denoise: e.ASR_DENOISE,
      openai: e.OPENAI_TRANSCRIBE_URL
        ? { baseUrl: e.OPENAI_TRANSCRIBE_URL, apiKey: e.OPENAI_TRANSCRIBE_KEY, model: e.OPENAI_TRANSCRIBE_MODEL }
        : null,
    },
    operatorRetryMaxSeconds: e.OPERATOR_RETRY_MAX_SECONDS,
    metricsToken: e.METRICS_TOKEN ?? null,
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    llm: e.LLM_URL ? { baseUrl: e.LLM_URL, apiKey: e.LLM_KEY, model: e.LLM_MODEL } : null,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    webhookRetryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE ? e.WEBHOOK_RETRY_SCHEDULE.split(',').map(Number) : null,
    webhookSecretOverlapHours: e.WEBHOOK_SECRET_OVERLAP_HOURS,
    webhookDisableAfterDays: e.WEBHOOK_DISABLE_AFTER_DAYS,
    intakeRatePerMinute: e.INTAKE_RATE_PER_MINUTE,
    secureCookies: e.SECURE_COOKIES ?? publicUrl.startsWith('https://'),
    trustProxy: e.TRUST_PROXY,
    graphqlMaxBodyBytes: e.GRAPHQL_MAX_BODY_BYTES,
    graphqlIntrospection: e.GRAPHQL_INTROSPECTION ? e.GRAPHQL_INTROSPECTION === 'on' : e.NODE_ENV !== 'production',
    minFreeDiskMb: e.MIN_FREE_DISK_MB,
    intake: {
      idleTimeoutMs: e.INTAKE_IDLE_TIMEOUT_SECONDS * 1000,
      minBytesPerSecond: e.INTAKE_MIN_BYTES_PER_SECOND,
      minRateWindowMs: e.INTAKE_MIN_RATE_WINDOW_SECONDS * 1000,
      maxConcurrentPerKey: e.INTAKE_MAX_CONCURRENT_PER_KEY,
      leaseMs: e.INTAKE_LEASE_SECONDS * 1000,
    },
  };
}

// Outside production a missing APP_SECRET is generated once and kept beside the data, so a bare
// `npm start` works and encrypted webhook secrets stay readable across restarts.
function devSecret(env: string, dataDir: string): string {
  if (env === 'production') throw new ConfigError('APP_SECRET is required in production (e.g. `openssl rand -hex 32`)');
  const file = path.join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { resolveModelsDir } from './transcription/models.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z.url({ message: 'DATABASE_URL must be a postgres:// URL' }).optional(),
  DATA_DIR: z.string().default(path.join(repoRoot, '.data')),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url().optional(),
  APP_SECRET: z.string().min(32, 'APP_SECRET must be at least 32 characters (e.g. `openssl rand -hex 32`)').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  WORKER_STALE_SECONDS: z.coerce.number().min(1).default(60),
  STORAGE_DIR: z.string().optional(),
  MODELS_DIR: z.string().optional(),
  TRANSCRIPTION_ENGINE: z.enum(['moonshine', 'openai']).default('moonshine'),
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
});

export type Env = z.input<typeof EnvSchema>;

export interface Config {
  env: 'development' | 'production' | 'test';
  databaseUrl: string | undefined;
  dataDir: string;
  embeddedPgPort: number;
  host: string;
  port: number;
  /** Public address of the service, without trailing slash; `{base_url}` is this plus `/v1`. */
  publicUrl: string;
  appSecret: string;
  logLevel: string;
  workerConcurrency: number;
  /** A worker silent this long is presumed dead; its jobs are retried by others. */
  workerStaleSeconds: number;
  storageDir: string;
  tmpDir: string;
  modelsDir: string;
  transcription:
    | { engine: 'moonshine' }
    | { engine: 'openai'; baseUrl: string; apiKey: string | undefined; model: string };
  llm: { baseUrl: string; apiKey: string | undefined; model: string } | null;
  webhookAllowPrivate: boolean;
  /** Waits between webhook attempts; null = PRODUCT.md's schedule (5 s … 10 h). */
  webhookRetryScheduleMs: number[] | null;
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
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    env: e.NODE_ENV,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    host: e.HOST,
    port: e.PORT,
    publicUrl,
    appSecret: e.APP_SECRET ?? devSecret(e.NODE_ENV, dataDir),
    logLevel: e.LOG_LEVEL,
    workerConcurrency: e.WORKER_CONCURRENCY,
    workerStaleSeconds: e.WORKER_STALE_SECONDS,
    storageDir: path.resolve(e.STORAGE_DIR ?? path.join(dataDir, 'recordings')),
    tmpDir: path.join(path.resolve(e.STORAGE_DIR ?? path.join(dataDir, 'recordings')), '.incoming'),
    modelsDir: resolveModelsDir(source),
    transcription:
      e.TRANSCRIPTION_ENGINE === 'openai'
        ? {
            engine: 'openai',
            baseUrl: e.OPENAI_TRANSCRIBE_URL!,
            apiKey: e.OPENAI_TRANSCRIBE_KEY,
            model: e.OPENAI_TRANSCRIBE_MODEL,
          }
        : { engine: 'moonshine' },
    llm: e.LLM_URL ? { baseUrl: e.LLM_URL, apiKey: e.LLM_KEY, model: e.LLM_MODEL } : null,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    webhookRetryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE ? e.WEBHOOK_RETRY_SCHEDULE.split(',').map(Number) : null,
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

import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import { EventEmitter } from 'node:events';
import type { WorkerEvents } from 'graphile-worker';
import { startSupervisedRunner, type SupervisedRunner } from '../jobs/supervised-runner.ts';
import type { Config } from '../config.ts';
import { createDb } from '../db/client.ts';
import { startEmbeddedPostgres, type EmbeddedDb } from '../db/embedded.ts';
import { migrate } from '../db/migrate.ts';
import { createLogger, type Logger } from '../log.ts';
import { createStorage } from '../storage/index.ts';
import { createHttpServer } from '../http/server.ts';
import { buildRoutes, buildFallback } from '../http/routes.ts';
import { CRONTAB, createTaskList } from '../../workers/index.ts';
import { startHeartbeat } from '../jobs/heartbeat.ts';
import { moonshineLanguages } from '../transcription/moonshine.ts';
import { workerLogger } from '../../workers/logger.ts';
import type { AppContext } from './context.ts';

export interface Roles {
  api: boolean;
  worker: boolean;
}

export interface Service {
  app: AppContext;
  /** Address the API listens on (when the api role runs). */
  url: string | null;
  worker: SupervisedRunner | null;
  close(): Promise<void>;
}

/** Starts the roles asked for in one process: api (REST + GraphQL + web app), worker, or both. */
export async function startService(
  config: Config,
  roles: Roles,
  log: Logger = createLogger(config.logLevel),
): Promise<Service> {
  let embedded: EmbeddedDb | null = null;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort, log);
    databaseUrl = embedded.url;
  }
  const report = await migrate(databaseUrl);
  if (report.applied.length) log.info({ applied: report.applied }, 'migrations applied');
  mkdirSync(config.tmpDir, { recursive: true });

  const app: AppContext = {
    config: { ...config, databaseUrl },
    log,
    db: createDb(databaseUrl),
    storage: createStorage(config),
  };

  let server: ReturnType<typeof createHttpServer> | null = null;
  let url: string | null = null;
  if (roles.api) {
    server = createHttpServer(app, await buildRoutes(app), await buildFallback(app));
    await new Promise<void>((resolve) => server!.listen(config.port, config.host, resolve));
    const { port } = server.address() as AddressInfo;
    url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    log.info({ url, publicUrl: config.publicUrl }, 'api listening');
  }

  if (
    roles.worker &&
    config.transcription.engine === 'moonshine' &&
    moonshineLanguages(config.modelsDir).length === 0
  ) {
    log.error(
      { modelsDir: config.modelsDir },
      'no Moonshine models found: run `npm run models:fetch` or set MODELS_DIR; calls cannot be transcribed until then',
    );
  }
  let worker: SupervisedRunner | null = null;
  let stopHeartbeat: (() => Promise<void>) | null = null;
  if (roles.worker) {
    // Created before run() so the heartbeat sees the workers run() creates.
    const events = new EventEmitter() as WorkerEvents;
    const heartbeat = startHeartbeat(app, events, {
      staleMs: config.workerStaleSeconds * 1000,
      intervalMs: Math.min(5000, (config.workerStaleSeconds * 1000) / 3),
    });
    worker = await startSupervisedRunner(
      {
        events,
        connectionString: databaseUrl,
        concurrency: config.workerConcurrency,
        taskList: createTaskList(app),
        crontab: CRONTAB,
        noHandleSignals: true,
        pollInterval: 1000,
        logger: workerLogger(log),
      },
      log,
    );
    stopHeartbeat = await heartbeat;
    log.info({ concurrency: config.workerConcurrency }, 'worker running');
  }

  return {
    app,
    url,
    worker,
    async close() {
      if (server) {
        const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
        server.closeIdleConnections();
        // Live-update streams (SSE) never go idle: give requests in flight a moment, then cut.
        const cut = setTimeout(() => server!.closeAllConnections(), 2000);
        await closed;
        clearTimeout(cut);
      }
      if (stopHeartbeat) await stopHeartbeat();
      if (worker) await worker.stop();
      await app.db.$disconnect();
      if (embedded) await embedded.stop();
    },
  };
}

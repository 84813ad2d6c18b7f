import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import type { Config } from '../config.ts';
import { createDb } from '../db/client.ts';
import { ApiKeyCache } from '../accounts/api-key-cache.ts';
import { FilterOptionsCache } from '../calls/filter-options-cache.ts';
import { SessionCache } from '../auth/session-cache.ts';
import { SLIDE_STEP_MS } from '../auth/session.ts';
import { StartupError, startEmbeddedPostgres, type EmbeddedDb } from '../db/embedded.ts';
import { Listener } from '../db/listener.ts';
import { migrate } from '../db/migrate.ts';
import { APP_SECRET_MISMATCH, appSecretMatches } from '../crypto/key-check.ts';
import { createLogger, type Logger } from '../log.ts';
import { createStorage } from '../storage/index.ts';
import type { createHttpServer } from '../http/server.ts';
import { tuneGcForUploads } from './gc.ts';
import type { AppContext } from '../context.ts';
import type { WorkerRole } from '../jobs/worker-role.ts';
import { FaultBoard } from '../ops/faults.ts';
import { trackRequests, type HttpDrain } from '../ops/http-drain.ts';
import { createMetrics } from '../ops/metrics.ts';
import { checkReadiness, readinessChecks } from '../ops/readiness.ts';

export interface Roles {
  api: boolean;
  worker: boolean;
}

export interface Service {
  app: AppContext;
  /** Address the API listens on (when the api role runs). */
  url: string | null;
  worker: WorkerRole | null;
  /**
   * Stops accepting, ends live-update streams, lets requests in flight finish for up to `graceMs`
   * (default SHUTDOWN_GRACE_SECONDS), lets running jobs finish in the same time or hands them back.
   */
  close(graceMs?: number): Promise<void>;
}

/** Starts the roles asked for in one process: api (REST + GraphQL + web app), worker, or both. */
export async function startService(
  config: Config,
  roles: Roles,
  log: Logger = createLogger(config.logLevel),
): Promise<Service> {
  if (roles.api) tuneGcForUploads();
  let embedded: EmbeddedDb | null = null;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort, log);
    databaseUrl = embedded.url;
  }
  try {
    return await startRoles(config, roles, log, databaseUrl, embedded);
  } catch (error) {
    // A start that fails half-way must not leave its PostgreSQL running behind it.
    await embedded?.stop().catch(() => {});
    throw error;
  }
}

async function startRoles(
  config: Config,
  roles: Roles,
  log: Logger,
  databaseUrl: string,
  embedded: EmbeddedDb | null,
): Promise<Service> {
  // What needs a session of its own (migrations' advisory lock, LISTEN, graphile-worker) goes to the
  // direct address when DATABASE_URL is a transaction pooler.
  const directUrl = config.databaseDirectUrl ?? databaseUrl;
  const role = roles.api && roles.worker ? 'all' : roles.api ? 'api' : 'worker';
  const report = await migrate(directUrl);
  if (report.applied.length) log.info({ applied: report.applied }, 'migrations applied');
  mkdirSync(config.tmpDir, { recursive: true });

  const db = createDb(databaseUrl, { applicationName: `escucha-${role}`, pooler: config.databaseDirectUrl !== null });
  // One LISTEN connection for every change feed of the process (issue 29).
  const listener = roles.api ? new Listener(directUrl, log, `escucha-${role}-listen`) : undefined;
  if (!(await appSecretMatches(db, config.appSecret))) {
    await db.$disconnect();
    throw new StartupError(APP_SECRET_MISMATCH);
  }
  const stopping = new AbortController();
  const app: AppContext = {
    stopping: stopping.signal,
    config: { ...config, databaseUrl, databaseDirectUrl: directUrl },
    log,
    db,
    storage: createStorage(config),
    faults: new FaultBoard(),
    metrics: createMetrics(db),
    ...(listener && {
      listener,
      apiKeys: new ApiKeyCache(db, listener, log),
      filterOptions: new FilterOptionsCache(listener),
      sessions: new SessionCache(listener, SLIDE_STEP_MS),
    }),
  };

  // Listening before serving: the first requests already use (and fill) the caches.
  await Promise.all([app.apiKeys?.listening(), app.filterOptions?.listening(), app.sessions?.listening()]);

  let server: ReturnType<typeof createHttpServer> | null = null;
  let drain: HttpDrain | null = null;
  let url: string | null = null;
  if (roles.api) {
    // Each role's modules are imported only by a process that runs it: a worker process does not hold the
    // api's (GraphQL schema, web app routes, validators), nor an api process the worker's (ONNX Runtime,
    // the jobs); imported alone, the api's half took ~20 MB of heap and ~55 MB of RSS.
    const [{ createHttpServer }, { buildRoutes, buildFallback }] = await Promise.all([
      import('../http/server.ts'),
      import('./routes.ts'),
    ]);
    server = createHttpServer(app, await buildRoutes(app), await buildFallback(app));
    drain = trackRequests(server);
    await listen(server, config.port, config.host);
    const { port } = server.address() as AddressInfo;
    url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    log.info({ url, publicUrl: config.publicUrl }, 'api listening');
  }

  // Said once at start, in the operator's words; calls wait (never fail) until each is fixed, and
  // GET /readyz keeps saying it.
  for (const check of (await checkReadiness(readinessChecks(app))).checks)
    if (!check.ok) log.error({ check: check.name }, `not ready: ${check.message}`);
  const worker = roles.worker ? await (await import('../../workers/start.ts')).startWorkerRole(app) : null;

  return {
    app,
    url,
    worker,
    async close(graceMs = config.shutdownGraceSeconds * 1000) {
      stopping.abort();
      // The api and the worker wind down side by side, within the same grace period.
      await Promise.all([drain?.close(graceMs), worker?.stop(graceMs)]);
      await Promise.all([app.apiKeys?.close(), app.filterOptions?.close(), app.sessions?.close()]);
      await listener?.close();
      await app.db.$disconnect();
      if (embedded) await embedded.stop();
    },
  };
}

function listen(server: ReturnType<typeof createHttpServer>, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE' || err.code === 'EACCES'
          ? new StartupError(
              `${host}:${port} is ${err.code === 'EADDRINUSE' ? 'taken by another program' : 'not allowed'}: set PORT (and HOST) to a free address.`,
            )
          : err,
      );
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

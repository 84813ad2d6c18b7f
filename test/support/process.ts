import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '..', '..');

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  /** The environment it was started with (for a CLI run against the same service). */
  env: NodeJS.ProcessEnv;
  /** Every JSON log line written so far. */
  logs: any[];
  /** Resolves with the first log line (past or future) `match` accepts. */
  waitForLog(match: (line: any) => boolean, ms?: number): Promise<any>;
  /** The exit code, or the signal that ended it. */
  exited: Promise<number | NodeJS.Signals | null>;
  /** What the process wrote to stderr so far. */
  stderr(): string;
}

/**
 * What `npm start` runs (`exec node src/main.ts`: Node strips the types itself, so the service is the
 * process that gets the signals) as a real child process, with JSON logs on stdout.
 */
export async function startServiceProcess(
  env: NodeJS.ProcessEnv,
  args: string[] = [],
  opts: { npmScript?: string; detached?: boolean; readyMs?: number } = {},
): Promise<ServiceProcess> {
  // With `npmScript`, the exact command the docs tell operators to run (`npm run start:api` …): the
  // child is npm itself, as a process manager would see it.
  const [command, argv] = opts.npmScript
    ? ['npm', ['run', '--silent', opts.npmScript, ...(args.length ? ['--', ...args] : [])]]
    : [process.execPath, ['src/main.ts', ...args]];
  const fullEnv = { LOG_LEVEL: 'info', ...env };
  const child = spawn(command, argv, {
    cwd: repoRoot,
    env: fullEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group (the child leads it), to be signalled as a whole as systemd and a
    // terminal's Ctrl-C do: `process.kill(-child.pid, signal)`.
    detached: opts.detached ?? false,
  });
  const logs: any[] = [];
  const waiters: { match: (l: any) => boolean; resolve: (l: any) => void }[] = [];
  let buffered = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    buffered += d;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const text = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      let line: any;
      try {
        line = JSON.parse(text);
      } catch {
        line = { msg: text };
      }
      logs.push(line);
      for (const w of [...waiters]) if (w.match(line)) waiters.splice(waiters.indexOf(w), 1) && w.resolve(line);
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.on('close', (code, signal) => resolve(code ?? signal)),
  );
  const waitForLog = (match: (l: any) => boolean, ms = 60_000) =>
    new Promise<any>((resolve, reject) => {
      const seen = logs.find(match);
      if (seen) return resolve(seen);
      const timer = setTimeout(
        () => reject(new Error(`no such log line within ${ms} ms; stderr: ${stderr.slice(-2000)}`)),
        ms,
      );
      waiters.push({
        match,
        resolve: (l) => {
          clearTimeout(timer);
          resolve(l);
        },
      });
      exited.then(() => reject(new Error(`the service exited; stderr: ${stderr.slice(-2000)}`)));
    });
  // A worker-only process has no address: it is ready once its worker runs.
  const workerOnly = args.includes('worker');
  const ready = await waitForLog(
    (l) => l.msg === (workerOnly ? 'worker running' : 'api listening'),
    opts.readyMs ?? 90_000,
  ).catch(async (error) => {
    // Nobody gets a handle on a process that never got ready: stop it here, or it outlives the file.
    if (child.exitCode === null && child.signalCode === null) {
      if (opts.detached) process.kill(-child.pid!, 'SIGKILL');
      else child.kill('SIGKILL');
    }
    await exited;
    throw error;
  });
  return { child, url: ready.url ?? '', env: fullEnv, logs, waitForLog, exited, stderr: () => stderr };
}

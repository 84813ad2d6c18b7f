// Real HTTP clients, each in its own process, for interop tests (issue 25.1): Node's fetch on each
// Node line, got, curl, Python's requests and Java's HttpClient. A client in the server's own
// process and event loop hides the timing faults real clients meet, so none runs in-process here.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = import.meta.dirname;

/** One request: POST `file`'s bytes to `url` with `headers`; `stall` sends them, then nothing more. */
export interface ClientCase {
  name: string;
  url: string;
  file: string;
  headers: Record<string, string>;
  /** Seconds the client then stops sending (Python resumes after them; the others never do). */
  stall?: number;
}

/** What the client saw: a status and (the start of) the body, or the error it raised instead. */
export interface ClientResult {
  name: string;
  status?: number;
  body?: string;
  error?: string;
}

export interface Client {
  name: string;
  run(cases: ClientCase[]): Promise<ClientResult[]>;
}

function parseLines(stdout: string): ClientResult[] {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

/** Runs a client program on a cases file (one process for all its cases). */
function programClient(name: string, command: () => Promise<[string, string[]]>): Client {
  return {
    name,
    async run(cases) {
      const file = path.join(os.tmpdir(), `escucha-cases-${process.pid}-${name.replace(/\W+/g, '-')}.json`);
      // Key order matters to Client.java's reader: name, url, file, headers, stall.
      writeFileSync(
        file,
        JSON.stringify(
          cases.map((c) => ({
            name: c.name,
            url: c.url,
            file: c.file,
            headers: c.headers,
            ...(c.stall && { stall: c.stall }),
          })),
        ),
      );
      const [cmd, args] = await command();
      const child = spawn(cmd, [...args, file], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
        if (process.env.DEBUG_CLIENTS) process.stderr.write(`${name}: ${d}`);
      });
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      if (code !== 0) throw new Error(`${name} exited with ${code}: ${stderr.slice(-2000)}`);
      return parseLines(stdout);
    },
  };
}

/**
 * A Node binary of major version `major`: the one running the tests or the system's `node` when it
 * is that version, else `node@<major>` from the npm registry, installed once into the temp folder.
 */
export async function nodeOfMajor(major: number): Promise<string> {
  const candidates = [process.execPath, 'node', '/usr/bin/node', '/usr/local/bin/node'];
  for (const bin of candidates) {
    try {
      const { stdout } = await run(bin, ['-v']);
      if (stdout.trim().startsWith(`v${major}.`)) return bin;
    } catch {}
  }
  const dir = path.join(os.tmpdir(), `escucha-node${major}`);
  const bin = path.join(dir, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), '{"private":true}');
    await run('npm', ['install', '--no-audit', '--no-fund', '--no-save', `node@${major}`], {
      cwd: dir,
      timeout: 5 * 60_000,
    });
  }
  return bin;
}

export const fetchClient = (major: number): Client =>
  programClient(`fetch (Node ${major})`, async () => [await nodeOfMajor(major), [path.join(here, 'fetch-client.mjs')]]);

export const gotClient: Client = programClient('got', async () => [
  await nodeOfMajor(24),
  [path.join(here, 'got-client.mjs')],
]);

export const requestsClient: Client = programClient('python requests', async () => [
  'python3',
  [path.join(here, 'requests_client.py')],
]);

export const javaClient: Client = programClient('java HttpClient', async () => [
  'java',
  [path.join(here, 'Client.java')],
]);

/** curl, one process per request (as a shell script would run it). */
export const curlClient: Client = {
  name: 'curl',
  async run(cases) {
    const results: ClientResult[] = [];
    for (const c of cases) results.push(await curlOnce(c));
    return results;
  },
};

function curlOnce(c: ClientCase): Promise<ClientResult> {
  const headers = Object.entries(c.headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  // curl reads a body from stdin with a blocking read, which would stall curl itself rather than
  // the connection: a slow client is a slow link instead (--limit-rate), under the service's floor.
  const slow = c.stall ? ['--limit-rate', '256'] : [];
  const args = ['-sS', '--max-time', '120', '-X', 'POST', ...headers, ...slow];
  args.push('--data-binary', `@${c.file}`, '-w', '\n%{http_code}', c.url);
  return new Promise((resolve) => {
    const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('close', (code) => {
      const nl = out.lastIndexOf('\n');
      const status = Number(out.slice(nl + 1));
      if (code !== 0 || !status) resolve({ name: c.name, error: `exit ${code}: ${err.trim()}` });
      else resolve({ name: c.name, status, body: out.slice(0, nl).slice(0, 500) });
      if (process.env.DEBUG_CLIENTS) process.stderr.write(`curl: ${c.name} ${status} ${err.trim()}\n`);
    });
  });
}

// Issue 9 point 6 and issue 29 point 1: SIGTERM to the real `npm start` process an operator runs, and
// to its whole process group, on an idle machine and with every core busy. The API stops accepting
// connections, an upload in flight still gets its answer, a running job finishes within
// SHUTDOWN_GRACE_SECONDS or is handed back, nothing is left in the temporary folder, and it exits 0.
import { spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { readFile, readdir } from 'node:fs/promises';
import { onTestFinished } from 'vitest';
import { makeStereoCall, type Turn } from '../fixtures/audio.ts';
import type { TestDb } from '../support/db.ts';
import { describe, expect, test } from '../support/harness.ts';
import { multipart } from '../support/raw-http.ts';
import { postCall } from '../support/intake.ts';

let t: TestDb;
test.beforeAll(({ db }) => {
  t = db;
});
// Each case's worker must start on that case's call, not on a job an earlier case left queued.
test.beforeEach(async () => {
  await t.sql('DELETE FROM graphile_worker._private_jobs');
});

const LONG: Turn[] = Array.from({ length: 8 }, (_, i) => ({
  speaker: i % 2 ? 'customer' : 'agent',
  voice: 'en',
  text: 'Thank you for calling. I would like to check the invoice for last month, the one with the extra charge on it.',
}));

async function status(id: string) {
  const [row] = await t.sql('SELECT status FROM calls WHERE id = $1', [id]);
  return row.status as string;
}

/**
 * How the signal reaches the service: to the exact process the README tells operators to start
 * (`npm start`: npm, which execs nothing itself but forwards the signal to the Node it runs), or to
 * its whole process group (systemd's default KillMode, a terminal's Ctrl-C, `docker stop` on a
 * shell-less PID 1 group), which then gets the signal twice: once from the kernel, once from npm.
 */
const WAYS = [
  { to: 'the `npm start` process', group: false, busy: false },
  { to: 'its process group', group: true, busy: false },
  { to: 'the `npm start` process', group: false, busy: true },
  { to: 'its process group', group: true, busy: true },
];

/** Node processes spinning on every core beside the service, until stopped. */
function saturateCpu() {
  const loops = Array.from({ length: os.availableParallelism() }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
  return async () => {
    await Promise.all(
      loops.map((l) => {
        const gone = new Promise((r) => l.once('close', r));
        l.kill('SIGKILL');
        return gone;
      }),
    );
  };
}

describe('graceful shutdown on SIGTERM', () => {
  test.for(WAYS)(
    'SIGTERM to $to (CPU saturated: $busy): the upload in flight gets its 201, new connections are refused, the job finishes or is handed back, nothing is left in the temporary folder, exit 0',
    { timeout: 300_000 },
    async ({ group, busy }, { app, seed, serviceProcess }) => {
      // A grace period long enough for the upload, short enough that a job slowed down by the busy
      // loop may still be running at its end: then it must be handed back, not lost.
      const svc = await serviceProcess({ env: { SHUTDOWN_GRACE_SECONDS: '20' }, npmScript: 'start', detached: true });
      const stopLoops = busy ? saturateCpu() : async () => {};
      try {
        const s = await seed();
        const long = await makeStereoCall(LONG);
        const running = await postCall(svc.url, {
          key: s.key,
          fields: { agent_code: 'AG-07', language: 'en' },
          file: { path: long },
        });
        expect(running.status).toBe(201);
        await svc.waitForLog((l) => l.msg === 'transcription language' && l.requested === 'en', 120_000);

        // An upload whose body is half sent when the signal comes.
        const boundary = 'shutdown-boundary';
        const body = multipart(boundary, [
          { name: 'agent_code', data: 'AG-07' },
          { name: 'file', filename: 'late.wav', type: 'audio/wav', data: await readFile(long) },
        ]);
        const { port, hostname } = new URL(svc.url);
        const req = http.request({
          host: hostname,
          port,
          method: 'POST',
          path: '/v1/calls',
          headers: {
            authorization: `Bearer ${s.key}`,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': body.length,
          },
        });
        const answered = new Promise<{ status: number; body: any }>((resolve, reject) => {
          req.on('response', (res) => {
            let text = '';
            res.setEncoding('utf8').on('data', (d) => (text += d));
            res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
          });
          req.on('error', reject);
        });
        const half = Math.floor(body.length / 2);
        req.write(body.subarray(0, half));
        // The server is receiving it: its temporary file exists.
        const incoming = app.config.tmpDir;
        while (!(await readdir(incoming)).some((f) => f.endsWith('.part'))) await new Promise((r) => setTimeout(r, 20));

        if (group) process.kill(-svc.child.pid!, 'SIGTERM');
        else svc.child.kill('SIGTERM');
        await svc.waitForLog((l) => l.msg === 'shutting down');
        // A process manager that repeats its SIGTERM does not cut the upload: only a second SIGINT
        // would. (Signalled as a group, npm may pass the group's SIGTERM on as a second one, or not.)
        if (!group) {
          svc.child.kill('SIGTERM');
          await svc.waitForLog((l) => l.msg === 'already shutting down');
        }
        const refused = await fetch(`${svc.url}/healthz`).then(
          () => 'answered',
          (e) => e.cause?.code,
        );
        // Refused, or — when the kernel completed the handshake in the instant before the listener
        // closed — reset: either way a new connection gets no answer from a process that is going away.
        expect(['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET']).toContain(refused);

        req.end(body.subarray(half));
        const late = await answered.catch((e) => {
          throw new Error(`no answer (${e}); the service wrote: ${svc.stderr()}`);
        });
        expect(late.status).toBe(201);
        expect(late.body.status).toBe('queued');

        // npm exits with the service's own code.
        const code = await svc.exited;
        expect(
          code,
          `${svc.stderr()}\n${svc.logs
            .slice(-5)
            .map((l) => JSON.stringify(l))
            .join('\n')}`,
        ).toBe(0);
        // The job that was running finished before the exit, or was handed back for another worker.
        const ended = await status(running.body.id);
        if (!['transcribed', 'analyzed'].includes(ended)) {
          // Handed back: its job waits, unlocked, for any worker. (Signalled as a group, the decoder
          // the job was running got the SIGTERM too: that never fails the call.)
          expect(['queued', 'transcribing']).toContain(ended);
          const [job] = await t.sql(
            'SELECT locked_at, attempts, max_attempts FROM graphile_worker._private_jobs WHERE key = $1',
            [`transcribe:${running.body.id}`],
          );
          expect(job.locked_at).toBeNull();
          expect(job.attempts).toBeLessThan(job.max_attempts);
        }
        expect(await status(late.body.id)).toBe('queued');
        expect(await readdir(incoming)).toEqual([]);
      } finally {
        await stopLoops();
        if (svc.child.exitCode === null) process.kill(-svc.child.pid!, 'SIGKILL');
      }
    },
  );

  test('a job still running when the grace period ends is handed back at once, unlocked for another worker', async ({
    seed,
    serviceProcess,
  }) => {
    const svc = await serviceProcess({ env: { SHUTDOWN_GRACE_SECONDS: '0.2' } });
    onTestFinished(() => {
      if (svc.child.exitCode === null && svc.child.signalCode === null) svc.child.kill('SIGKILL');
    });
    const s = await seed();
    const long = await makeStereoCall(LONG);
    const running = await postCall(svc.url, {
      key: s.key,
      fields: { agent_code: 'AG-07', language: 'en' },
      file: { path: long },
    });
    await svc.waitForLog((l) => l.msg === 'transcription language' && l.requested === 'en');
    const signalled = Date.now();
    svc.child.kill('SIGTERM');
    expect(await svc.exited).toBe(0);
    // At once: the chunk being decoded ends, the rest of the call is not transcribed.
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(await status(running.body.id)).toBe('transcribing');
    const [job] = await t.sql(
      `SELECT locked_at, locked_by, last_error FROM graphile_worker._private_jobs WHERE key = $1`,
      [`transcribe:${running.body.id}`],
    );
    expect(job.locked_at).toBeNull();
    expect(job.last_error).toContain('shutdown grace period over');

    // Another worker takes it and finishes the call.
    await t.sql(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE key = $1`, [
      `transcribe:${running.body.id}`,
    ]);
    const next = await serviceProcess({ args: ['--role', 'all'] });
    try {
      await next.waitForLog((l) => l.msg === 'call transcribed' && l.callId === running.body.id, 120_000);
    } finally {
      next.child.kill('SIGTERM');
      await next.exited;
    }
  }, 240_000);
});

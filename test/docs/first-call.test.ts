// Issue 25: the README's "A first call, end to end", run command by command as a new customer would:
// the service (`npm start`'s entry point) in a child process, each command in its own shell with the
// same database, DATA_DIR and APP_SECRET, real speech (espeak-ng via `npm run sample-calls`), real
// transcription, and a real receiver in place of the README's example.com.
import { exec } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { exampleTemplates } from '../../src/analysis/examples/index.ts';
import { codeBlocks, docSection } from '../support/docs.ts';
import { expect, test } from '../support/harness.ts';
import { repoRoot, type ServiceProcess } from '../support/process.ts';
import { Browser } from '../graphql/support.ts';

const sh = promisify(exec);
const HEADING = 'A first call, end to end';

let svc: ServiceProcess;
/** Each command's shell: the service's database, DATA_DIR and APP_SECRET. */
let env: NodeJS.ProcessEnv;

test.beforeAll(async ({ serviceProcess }) => {
  svc = await serviceProcess({
    env: {
      // `npm run` and its scripts run on this Node (24), as they do from the node package's .bin.
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
      // The README sets no PUBLIC_URL.
      PUBLIC_URL: undefined,
    },
    ownDataDir: true,
  });
  env = { ...svc.env, PORT: undefined, HOST: undefined, LOG_LEVEL: 'warn' };
}, 180_000);

/** The block's commands: comments dropped (whole lines and trailing ` # …`), `\` continuations joined. */
function commands(block: string): string[] {
  return block
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.replace(/\s#\s.*$/, '').trim())
    .filter((l) => l && !l.startsWith('#'));
}

/** The JSON a command printed last (npm prints its own header lines first). */
function lastJson(stdout: string): any {
  const start = stdout.search(/^\{/m);
  if (start < 0) throw new Error(`no JSON in:\n${stdout}`);
  return JSON.parse(stdout.slice(start));
}

const option = (command: string, name: string) => new RegExp(`--${name} (\\S+)`).exec(command)?.[1];

test('gives a Spanish and an English call scored with their own templates at full coverage, a critical fail, and a signed webhook each', async ({
  receiver: newReceiver,
}) => {
  const receiver = await newReceiver();
  const section = docSection(HEADING);
  const [block] = codeBlocks(section, 'bash');
  expect(block, `${section.file}: no bash block under "${HEADING}"`).toBeTruthy();

  // What the reader fills in from earlier answers, and where this machine differs from theirs.
  const filled: Record<string, string> = {};
  const fill = (command: string) => {
    let out = command
      .replaceAll('http://localhost:3000', svc.url)
      .replace(/https:\/\/example\.com(\/\S*)/, `${receiver.url}$1`);
    for (const [placeholder, value] of Object.entries(filled)) out = out.replaceAll(placeholder, value);
    expect(out, 'a placeholder the test does not know').not.toMatch(/<[A-Z_]+>|…/);
    return out;
  };

  let email: string | undefined;
  let password: string | undefined;
  let secret: string | undefined;
  const posted: { externalId: string; language: string; id: string }[] = [];
  const imported: Record<string, string> = {};
  for (const command of commands(block!)) {
    const r = await sh(fill(command), { cwd: repoRoot, env, maxBuffer: 1 << 24 }).catch(
      (error: { code: number; stdout: string; stderr: string }) => {
        throw new Error(`"${command}" exited with ${error.code}:\n${error.stderr.slice(-2000)}`);
      },
    );
    if (command.includes('account:create')) {
      const out = lastJson(r.stdout);
      // --email is shown, and the owner gets exactly that address.
      expect(option(command, 'email')).toBeTruthy();
      expect(out.owner.email).toBe(option(command, 'email'));
      ({ email, password } = out.owner);
      filled['<ACCOUNT>'] = out.account.id;
    } else if (command.includes('template:import')) {
      const out = lastJson(r.stdout);
      expect(out.defaultFor).toBe(option(command, 'language'));
      imported[out.template.language] = out.template.name;
    } else if (command.includes('apikey:create')) {
      filled['esk_…'] = lastJson(r.stdout).key;
    } else if (command.includes('webhook:set')) {
      secret = lastJson(r.stdout).secret;
    } else if (command.startsWith('curl')) {
      const out = JSON.parse(r.stdout);
      expect(out.status).toBe('queued');
      posted.push({
        externalId: /external_id=(\S+)/.exec(command)![1]!,
        language: /language=(\w+)/.exec(command)![1]!,
        id: out.id,
      });
    }
  }

  // Both languages were set up with the CLI alone, each example the default of its own language.
  const names = Object.fromEntries(exampleTemplates.map((x) => [x.definition.language, x.name]));
  expect(imported).toEqual({ en: names.en, es: names.es });
  expect(new Set(posted.map((p) => p.language))).toEqual(new Set(['en', 'es']));

  await receiver.waitFor(posted.length, 480_000);
  const events = receiver.received.map(
    (r) => new Webhook(secret!).verify(r.body, r.headers as Record<string, string>) as any,
  );
  for (const p of posted) {
    const event = events.find((e) => e.data.id === p.id);
    expect(event, `no signed call.analyzed for ${p.externalId}`).toMatchObject({
      type: 'call.analyzed',
      data: { external_id: p.externalId, language: p.language, template: { name: names[p.language] }, coverage: 1 },
    });
    expect(event.data.language_mismatch).toBe(false);
  }

  // The list's red "⚠ 0" pill: a critical criterion failed on a call scored at full coverage.
  const browser = new Browser(`${svc.url}/graphql`);
  await browser.signIn(email!, password!);
  const list = await browser.gql(
    `{ calls(first: 10) { edges { node { id externalId score coverage criticalFailed } } } }`,
  );
  const calls = list.body.data.calls.edges.map((e: any) => e.node);
  const critical = calls.filter((c: any) => c.criticalFailed);
  expect(critical.map((c: any) => [c.externalId, c.score, c.coverage])).toEqual([[posted.at(-1)!.externalId, 0, 1]]);
  const forbidden = events
    .find((e) => e.data.id === posted.at(-1)!.id)
    .data.criteria.find((c: any) => c.critical && c.result === 'failed');
  expect(forbidden.key).toBe('no_inappropriate_language');
  expect(forbidden.evidence.map((e: any) => e.quote.toLowerCase()).join(' | ')).toMatch(/calm down|not my problem/);
}, 900_000);

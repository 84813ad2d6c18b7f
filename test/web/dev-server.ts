/**
 * A seeded local server for working on the web app by hand (not a test):
 *   npx tsx test/web/dev-server.ts [--port 3123] [--calls 4]
 * Creates a fresh database `escucha_webdev` on the local PostgreSQL, starts api + worker, seeds an
 * account with agents, a campaign, a default template and a few real-speech calls, and prints the
 * owner's credentials. Ctrl-C stops it.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startService } from '../../src/service/start.ts';
import { loadConfig } from '../../src/config.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { createAgent } from '../../src/accounts/agents.ts';
import { createApiKey } from '../../src/accounts/api-keys.ts';
import { createCampaign } from '../../src/accounts/campaigns.ts';
import { createTemplate, setDefaultTemplate } from '../../src/accounts/templates.ts';
import { createLogger } from '../../src/log.ts';
import { convert, makeStereoCall, synth, type Turn } from '../fixtures/audio.ts';
import { postCall } from '../support/intake.ts';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] ?? def) : def;
};
const port = Number(arg('port', '3123'));
const admin = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = 'escucha_webdev';

const c = new pg.Client({ connectionString: admin });
await c.connect();
await c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
await c.query(`CREATE DATABASE ${DB}`);
await c.end();
const u = new URL(admin);
u.pathname = `/${DB}`;

const config = loadConfig({
  ...process.env,
  NODE_ENV: 'development',
  DATABASE_URL: u.toString(),
  DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'escucha-webdev-')),
  HOST: '127.0.0.1',
  PORT: String(port),
  APP_SECRET: 'dev-secret-'.padEnd(48, 'x'),
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  PUBLIC_URL: `http://127.0.0.1:${port}`,
});
const svc = await startService(config, { api: true, worker: true }, createLogger(config.logLevel));
const db = svc.app.db;
const { account, owner } = await createAccount(db, {
  name: 'Contact Center Madrid',
  minutes: 3000,
  seats: 12,
  timeZone: 'Europe/Madrid',
});
await createAgent(db, account.id, { name: 'Ana García', code: 'AG-07' });
await createAgent(db, account.id, { name: 'Luis Romero', code: 'LR-12' });
await createAgent(db, account.id, { name: 'Marta Ruiz', code: 'MR-03' });
const es = await createTemplate(db, account.id, {
  name: 'Atención al cliente',
  definition: {
    version: 1,
    language: 'es',
    criteria: [
      {
        key: 'saludo',
        label: 'Saluda y se presenta',
        kind: 'phrase',
        phrases: ['gracias por llamar', 'le atiende'],
        speaker: 'agent',
        weight: 3,
        window: { from: 'start', seconds: 30 },
      },
      {
        key: 'disculpa',
        label: 'Se disculpa por el problema',
        kind: 'phrase',
        phrases: ['lo siento'],
        speaker: 'agent',
        weight: 2,
      },
      {
        key: 'oferta',
        label: 'Ofrece el plan premium',
        kind: 'phrase',
        phrases: ['plan premium'],
        speaker: 'agent',
        weight: 2,
      },
      {
        key: 'sin_insultos',
        label: 'Sin lenguaje ofensivo',
        kind: 'forbidden',
        phrases: ['idiota', 'estúpido'],
        speaker: 'agent',
        weight: 2,
        critical: true,
      },
      {
        key: 'habla',
        label: 'Deja hablar al cliente',
        kind: 'metric',
        metric: 'talk_ratio',
        op: 'lte',
        value: 0.7,
        speaker: 'agent',
        weight: 1,
      },
    ],
    topics: [
      { key: 'facturacion', label: 'Facturación', phrases: ['factura', 'cobrado', 'cargo'] },
      { key: 'averia', label: 'Avería', phrases: ['router', 'internet'] },
    ],
  },
});
await setDefaultTemplate(db, account.id, es.id);
await createCampaign(db, account.id, { name: 'Atención', language: 'es', templateId: es.id });
const { key } = await createApiKey(db, account.id);

const ES: Turn[] = [
  { speaker: 'agent', voice: 'es', text: 'Buenos días, gracias por llamar a Acme. Le atiende Ana.' },
  { speaker: 'customer', voice: 'es', text: 'Hola, tengo un problema con mi factura. Me han cobrado dos veces.' },
  { speaker: 'agent', voice: 'es', text: 'Lo siento mucho. Le devuelvo el cargo hoy mismo.' },
  { speaker: 'customer', voice: 'es', text: 'Muchas gracias. Adiós.' },
];
const ES2: Turn[] = [
  { speaker: 'agent', voice: 'es', text: 'Hola, buenas tardes.' },
  { speaker: 'customer', voice: 'es', text: 'Mi internet no funciona desde ayer y el router parpadea.' },
  { speaker: 'agent', voice: 'es', text: 'Vamos a reiniciar el router. Espere un momento, por favor.' },
  { speaker: 'customer', voice: 'es', text: 'Vale, ya está. Ahora funciona.' },
];
const n = Number(arg('calls', '4'));
const files = [await convert(await makeStereoCall(ES), 'mp3'), await convert(await makeStereoCall(ES2), 'ogg')];
for (let i = 0; i < n; i++) {
  await postCall(svc.url!, {
    key,
    fields: {
      agent_code: i % 2 ? 'LR-12' : 'AG-07',
      campaign: 'atencion',
      customer_phone: `+3460011122${i}`,
      direction: i % 2 ? 'outbound' : 'inbound',
      external_id: `dev-${i}`,
    },
    file: { path: files[i % 2]!, name: `call-${i}.${i % 2 ? 'ogg' : 'mp3'}` },
  });
}
await postCall(svc.url!, {
  key,
  fields: { agent_code: 'MR-03', external_id: 'dev-silence' },
  file: { path: await synth('silence', 4), name: 'silencio.wav' },
});
await postCall(svc.url!, {
  key,
  fields: { agent_code: 'MR-03', external_id: 'dev-broken' },
  file: {
    blob: new Blob([Buffer.concat([Buffer.from('ID3'), Buffer.alloc(4000, 7)])], { type: 'audio/mpeg' }),
    name: 'roto.mp3',
  },
});
console.log(JSON.stringify({ url: svc.url, email: owner.email, password: owner.password, apiKey: key }));
process.on('SIGINT', async () => {
  await svc.close();
  process.exit(0);
});

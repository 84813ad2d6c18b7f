/**
 * Screenshots of a running app, for design work by hand (not a test):
 *   npx tsx test/web/shoot.ts <url> <email> <password> [lang] [page ...]
 * Pages are paths (e.g. /calls /team); writes test-results/screenshots/dev-<name>.png.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../support/browser.ts';

const [url, email, password, lang = 'en', ...pages] = process.argv.slice(2);
if (!url || !email || !password) throw new Error('usage: shoot.ts <url> <email> <password> [lang] [pages…]');
const out = path.resolve('test-results/screenshots');
mkdirSync(out, { recursive: true });
const browser = await chromium.launchPersistentContext(mkdtempSync(path.join(os.tmpdir(), 'escucha-shoot-')), {
  executablePath: '/usr/bin/chromium',
  args: CHROMIUM_ARGS,
  viewport: { width: Number(process.env.W ?? 1440), height: Number(process.env.H ?? 900) },
  locale: lang === 'es' ? 'es-ES' : 'en-US',
});
const page = browser.pages()[0] ?? (await browser.newPage());
page.on('console', (m) => m.type() === 'error' && console.error('console:', m.text()));
page.on('pageerror', (e) => console.error('pageerror:', e.message));
await page.goto(`${url}/signin`);
await page.screenshot({ path: path.join(out, `dev-signin-${lang}.png`) });
await page.getByLabel(lang === 'es' ? 'Correo electrónico' : 'Email').fill(email);
await page.getByLabel(lang === 'es' ? 'Contraseña' : 'Password').fill(password);
await page.getByRole('button', { name: lang === 'es' ? 'Entrar' : 'Sign in' }).click();
await page.waitForURL(/\/calls/);
for (const p of pages.length ? pages : ['/calls']) {
  await page.goto(`${url}${p}`);
  await page.waitForTimeout(Number(process.env.WAIT ?? 1200));
  const name = p.replace(/^\//, '').replace(/[/?=&]+/g, '-') || 'root';
  await page.screenshot({ path: path.join(out, `dev-${name}-${lang}.png`), fullPage: process.env.FULL === '1' });
  console.log('shot', name);
}
await browser.close();

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/*
 * The Chromium every browser test drives: the system's headless Chromium in a throwaway profile,
 * with the page's uncaught errors (and, when asked, console errors) collected so a test can end
 * with `expect(browser.errors).toEqual([])`. One definition, so a flag that keeps Chromium quiet
 * on a busy machine is added once.
 */

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync',
];

export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  /** `pageerror: …` for every uncaught error; `console: …` for console errors when `consoleErrors`. */
  errors: string[];
  /** What the app's Content-Security-Policy blocked, when `reportCsp` (otherwise stays empty). */
  cspViolations: string[];
  close(): Promise<void>;
}

export async function launchChromium(
  opts: {
    viewport?: { width: number; height: number };
    acceptDownloads?: boolean;
    bypassCSP?: boolean;
    /** Also collect console errors, except failed resource loads (a 404 recording is expected). */
    consoleErrors?: boolean;
    /** Collect every `securitypolicyviolation` the pages raise into `cspViolations`. */
    reportCsp?: boolean;
    /** Flags beyond CHROMIUM_ARGS (for example an autoplay policy). */
    args?: string[];
    /** The browser's language (navigator.languages, Accept-Language); en-US unless given. */
    locale?: string;
  } = {},
): Promise<TestBrowser> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'escucha-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium',
      args: [...CHROMIUM_ARGS, ...(opts.args ?? [])],
      viewport: opts.viewport ?? { width: 1440, height: 900 },
      locale: opts.locale ?? 'en-US',
      acceptDownloads: opts.acceptDownloads ?? false,
      bypassCSP: opts.bypassCSP ?? false,
    });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  const cspViolations: string[] = [];
  if (opts.reportCsp) {
    await context.exposeBinding('__reportCspViolation', (_source, v: string) => void cspViolations.push(v));
    await context.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { __reportCspViolation(v: string): void }).__reportCspViolation(
          `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`,
        ),
      ),
    );
  }
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  if (opts.consoleErrors)
    page.on('console', (m) => {
      if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(`console: ${m.text()}`);
    });
  return {
    context,
    page,
    errors,
    cspViolations,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Signs in through the sign-in page (the caller waits for where the app lands). */
export async function signInAs(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/signin`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

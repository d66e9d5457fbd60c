import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, BrowserType, Locator, Page } from 'playwright-core';
import { connectRecorder } from '../client/connect';
import { recorderLaunchArgs } from '../client/launch-args';
import type { LocatorChoice } from '../repro/locator';
import type { ResponseQueue } from '../repro/offline-responses';
import type { ObservedSignal } from '../repro/ports';
import type { ReplayDriver } from '../repro/replay';

/** How long a step waits for its target to be there (the recorded timing, loosely: it waits for the element, not for a time). */
const FIND_MS = 10_000;
const ACT_MS = 5_000;

/**
 * playwright-core, loaded on use by a name esbuild does not follow (as `browser-bundles.ts` does): the
 * packaged CLI does not bundle it, and every other command runs without it installed.
 */
async function loadChromium(): Promise<BrowserType> {
  const name = 'playwright-core';
  const module = (await import(/* @vite-ignore */ name).catch(() => null)) as { chromium: BrowserType } | null;
  if (!module) throw new Error('it needs playwright-core: npm install playwright-core');
  return module.chromium;
}

/** Chromium to run: `CHROME_PATH`, else the one Playwright finds, else Debian's. */
export function chromiumExecutable(chromium: BrowserType, env: Readonly<Record<string, string | undefined>>): string | null {
  let playwrights: string | undefined;
  try {
    playwrights = chromium.executablePath();
  } catch {
    playwrights = undefined;
  }
  return [env.CHROME_PATH, playwrights, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p): p is string => !!p && existsSync(p)) ?? null;
}

/** The built recorder: `--extension`, `AFR_EXTENSION_DIR`, else `.output/chrome-mv3` of this checkout or package. */
export function recorderDir(given: string | undefined, env: Readonly<Record<string, string | undefined>>): string | null {
  // Two folders up from here is the package's root, from `src/cli/` in a checkout as from `dist/cli/` bundled.
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const dir = given ?? env.AFR_EXTENSION_DIR ?? path.join(root, '.output/chrome-mv3');
  return existsSync(path.join(dir, 'manifest.json')) ? path.resolve(dir) : null;
}

/** A choice as a Playwright locator. A selector from the bundle is only ever read as CSS (`css=`), no other engine. */
function locate(page: Page, choice: LocatorChoice): Locator {
  switch (choice.kind) {
    case 'testid':
      return page.getByTestId(choice.value);
    case 'role':
      return page.getByRole(choice.role, { name: choice.name, exact: true });
    case 'label':
      return page.getByLabel(choice.value, { exact: true });
    case 'text':
      return page.getByText(choice.value, { exact: true });
    case 'css':
      return page.locator(`css=${choice.value}`);
  }
}

export interface ReproBrowser {
  driver: ReplayDriver;
  /** The recorder's folder when it runs in this browser, else null (not built). */
  recorder: string | null;
  /** Requests the offline replay aborted: the bundle did not record them. */
  unrecorded(): readonly string[];
  /** The bundle the recorder made of the replay (waits up to `timeoutMs` for one), saved into `dir`; null when none. */
  saveNewBundle(dir: string, timeoutMs: number): Promise<string | null>;
  close(): Promise<void>;
}

export interface ReproBrowserOptions {
  env: Readonly<Record<string, string | undefined>>;
  /** `--extension`: the built recorder to load (else `recorderDir`'s places). */
  extension?: string;
  headed: boolean;
  viewport: { width: number; height: number } | null;
  /** Answer every request from these recorded responses (`--offline`), aborting the others. */
  offline: ResponseQueue | null;
}

/** Starts Chromium (a fresh profile, the recorder loaded when built) and a driver on its one page. */
export async function launchReproBrowser(options: ReproBrowserOptions): Promise<ReproBrowser> {
  const chromium = await loadChromium();
  const executablePath = chromiumExecutable(chromium, options.env);
  if (!executablePath) throw new Error('no Chromium found: set CHROME_PATH (Debian: apt-get install -y chromium)');
  const extensionDir = recorderDir(options.extension, options.env);
  if (options.extension !== undefined && !extensionDir) throw new Error(`no built recorder in ${options.extension} (no manifest.json): npm run build makes .output/chrome-mv3`);
  const profile = mkdtempSync(path.join(os.tmpdir(), 'afr-repro-'));
  const started = Date.now();
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: !options.headed,
      ...(options.viewport ? { viewport: { width: Math.round(options.viewport.width), height: Math.round(options.viewport.height) } } : {}),
      args: ['--no-sandbox', '--no-first-run', '--disable-sync', '--disable-background-networking', '--disable-component-update', ...(extensionDir ? recorderLaunchArgs(extensionDir) : [])],
    });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  const signals: ObservedSignal[] = [];
  page.on('response', (response) => signals.push({ kind: 'response', method: response.request().method(), url: response.url(), status: response.status() }));
  page.on('requestfailed', (request) => signals.push({ kind: 'request_failed', method: request.method(), url: request.url(), error: request.failure()?.errorText ?? '' }));
  page.on('pageerror', (error) => signals.push({ kind: 'exception', message: error.message }));
  page.on('console', (message) => {
    if (message.type() === 'error') signals.push({ kind: 'console_error', message: message.text() });
  });
  page.on('crash', () => signals.push({ kind: 'crash' }));
  const offline = options.offline;
  if (offline) {
    await page.route('**/*', async (route) => {
      const request = route.request();
      const answer = offline.take(request.method(), request.url());
      if (!answer) return route.abort();
      return route.fulfill({ status: answer.status, contentType: answer.contentType, body: answer.base64 ? Buffer.from(answer.body, 'base64') : answer.body });
    });
  }

  const driver: ReplayDriver = {
    async goto(url) {
      await page.goto(url, { waitUntil: 'load', timeout: FIND_MS * 3 });
    },
    async act(op, choices, value) {
      const deadline = Date.now() + FIND_MS;
      for (;;) {
        for (const choice of choices) {
          const locator = locate(page, choice);
          if ((await locator.count()) !== 1) continue;
          if (op === 'click') await locator.click({ timeout: ACT_MS });
          else if (op === 'fill') await locator.fill(value, { timeout: ACT_MS });
          else if (op === 'select') await locator.selectOption(value, { timeout: ACT_MS });
          else await locator.press(value, { timeout: ACT_MS });
          return { used: choice };
        }
        if (Date.now() >= deadline) throw new Error(`no element found by any of its ${choices.length} locators within ${FIND_MS / 1000} s`);
        await page.waitForTimeout(100);
      }
    },
    signals: () => signals,
    pause: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };

  return {
    driver,
    recorder: extensionDir,
    unrecorded: () => offline?.unrecorded ?? [],
    async saveNewBundle(dir, timeoutMs) {
      if (!extensionDir) return null;
      try {
        const recorder = await connectRecorder(context, { timeoutMs });
        const bundle = await recorder.waitForBundle({ since: started, timeoutMs });
        return await recorder.saveBundle(bundle.id, dir);
      } catch {
        return null;
      }
    },
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

import { chromium, type BrowserContext, type Worker } from 'playwright-core';
import puppeteer, { type Browser as PuppeteerBrowser } from 'puppeteer-core';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SILENT_DEBUGGER_SWITCH } from '../../src/client/launch-args';

export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const EXTENSION_DIR = process.env.AFR_EXTENSION_DIR ?? path.join(ROOT_DIR, '.output/chrome-mv3');

/** Chromium's switch that keeps the debugger infobar out of the window, so frames show the whole viewport. */
export { SILENT_DEBUGGER_SWITCH };

/** Chromium to drive: `CHROME_PATH`, else Debian's `/usr/bin/chromium`. Branded Chrome ignores --load-extension. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error('Chromium not found: install it (apt-get install -y chromium) or set CHROME_PATH');
  return found;
}

export interface RecorderBrowser {
  context: BrowserContext;
  worker: Worker;
  extensionId: string;
  /** The profile directory (Chromium's `--user-data-dir`): finds the browser's processes. */
  profile: string;
  close(): Promise<void>;
}

/** Launches Chromium with the built extension loaded and returns its service worker. */
export async function launchWithRecorder({
  headless = process.env.HEADED !== '1',
  downloadsPath,
  debuggingPort,
  extensionDir = EXTENSION_DIR,
  profile: givenProfile,
}: {
  headless?: boolean;
  downloadsPath?: string;
  /** The unpacked extension to load (default: the build). */
  extensionDir?: string;
  /** Also serve the DevTools protocol on this localhost port (e.g. to read the service worker's heap). */
  debuggingPort?: number;
  /** A profile to start (again) on, as a restarted browser does; the caller removes it. Default: a new one, removed on close. */
  profile?: string;
} = {}): Promise<RecorderBrowser> {
  if (!existsSync(path.join(extensionDir, 'manifest.json'))) {
    throw new Error(`no built extension in ${extensionDir}: run npm run build`);
  }
  const profile = givenProfile ?? mkdtempSync(path.join(os.tmpdir(), 'afr-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless,
    viewport: { width: 1280, height: 720 },
    acceptDownloads: true,
    downloadsPath,
    args: [
      '--no-sandbox',
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
      // No "started debugging this browser" infobar: it would take the bottom of every frame (FACTS.md).
      SILENT_DEBUGGER_SWITCH,
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-gpu',
      ...(debuggingPort ? [`--remote-debugging-port=${debuggingPort}`] : []),
    ],
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const extensionId = new URL(worker.url()).host;
  return {
    context,
    worker,
    extensionId,
    profile,
    close: async () => {
      await context.close();
      if (!givenProfile) rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    },
  };
}

export interface CommandLineBrowser {
  /** Puppeteer connected over the DevTools port, as an agent that started the browser itself connects. */
  browser: PuppeteerBrowser;
  /** `http://127.0.0.1:<port>`. */
  browserURL: string;
  /** Disconnects, stops the browser (its own process id) and removes its profile. */
  close(): Promise<void>;
}

/**
 * Chromium started the way a user or an agent framework starts it: `chromium --load-extension=… <url>`,
 * the page given on its command line, with a DevTools port (`--remote-debugging-port=0`). Playwright's
 * `launchPersistentContext` refuses a URL among its `args` ("Arguments can not specify page to be
 * opened"), so this one is spawned and connected to with Puppeteer.
 */
export async function launchWithStartUrl(startUrl: string, extensionDir = EXTENSION_DIR): Promise<CommandLineBrowser> {
  if (!existsSync(path.join(extensionDir, 'manifest.json'))) throw new Error(`no built extension in ${extensionDir}: run npm run build`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-start-url-'));
  const profile = path.join(dir, 'profile');
  const args = ['--headless', `--user-data-dir=${profile}`, '--remote-debugging-port=0', '--no-first-run', '--disable-gpu', '--disable-sync'];
  if (process.getuid?.() === 0) args.unshift('--no-sandbox');
  const child = spawn(chromiumPath(), [...args, `--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`, SILENT_DEBUGGER_SWITCH, startUrl], {
    stdio: 'ignore',
    env: { ...process.env, HOME: dir },
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    }
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  };
  try {
    const portFile = path.join(profile, 'DevToolsActivePort');
    const deadline = Date.now() + 20_000;
    while (!/^\d+\n/.test(existsSync(portFile) ? readFileSync(portFile, 'utf8') : '')) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`Chromium did not serve DevTools (exit code ${child.exitCode})`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const browserURL = `http://127.0.0.1:${readFileSync(portFile, 'utf8').split('\n')[0]}`;
    const browser = await puppeteer.connect({ browserURL, defaultViewport: null });
    return {
      browser,
      browserURL,
      close: async () => {
        await browser.disconnect().catch(() => undefined);
        await stop();
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

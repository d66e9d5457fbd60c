import { existsSync } from 'node:fs';
import path from 'node:path';
import { RecorderLoadError } from './errors';

/**
 * A browser-level DevTools session: Puppeteer's `CDPSession` (`browser.target().createCDPSession()`) or
 * Playwright's (`browser.newBrowserCDPSession()`), as far as `loadRecorder` needs it.
 */
export interface BrowserCdpSessionLike {
  send(method: 'Extensions.loadUnpacked', params: { path: string }): Promise<unknown>;
}

/** What to say when the browser refuses `Extensions.loadUnpacked`. */
export function loadRefusedMessage(dir: string, cdpMessage: string): string {
  const hint = /not available|not found|wasn't found/i.test(cdpMessage)
    ? ' The browser does not offer the Extensions domain on this connection: start it with ' +
      '--enable-unsafe-extension-debugging, and for Google Chrome connect through --remote-debugging-pipe ' +
      '(Puppeteer: launch with pipe: true).'
    : '';
  return `loadRecorder: the browser refused to load ${dir}: ${cdpMessage.replace(/^Protocol error \([^)]*\): /, '').replace(/\.$/, '')}.${hint}`;
}

/**
 * Loads the built extension (`.output/chrome-mv3`) into a running browser with CDP
 * `Extensions.loadUnpacked` and resolves to its id (`RECORDER_EXTENSION_ID` for the recorder's pinned
 * key): for branded Google Chrome 137+, which ignores `--load-extension`. The browser must allow it:
 * `--enable-unsafe-extension-debugging`, and Google Chrome wants the DevTools connection over
 * `--remote-debugging-pipe` (Puppeteer's `pipe: true`). Rejects with `RecorderLoadError` saying what to do.
 *
 * @example
 * import puppeteer from 'puppeteer-core';
 * import { connectRecorderPuppeteer, loadRecorder } from 'agent-flight-recorder/client';
 *
 * const browser = await puppeteer.launch({
 *   executablePath: '/opt/google/chrome/chrome',
 *   pipe: true, // Google Chrome offers Extensions.loadUnpacked over a pipe only
 *   enableExtensions: true, // else Puppeteer passes --disable-extensions
 *   args: ['--enable-unsafe-extension-debugging', '--silent-debugger-extension-api'], // the latter: no infobar over the frames' bottom
 * });
 * await loadRecorder(await browser.target().createCDPSession(), '/path/to/.output/chrome-mv3');
 * const rec = await connectRecorderPuppeteer(browser);
 */
export async function loadRecorder(cdp: BrowserCdpSessionLike, extensionPath: string): Promise<string> {
  const dir = path.resolve(extensionPath);
  if (!existsSync(path.join(dir, 'manifest.json'))) {
    throw new RecorderLoadError(`loadRecorder: no manifest.json in ${dir}: build the extension (npm run build) and pass .output/chrome-mv3`);
  }
  let answer: unknown;
  try {
    answer = await cdp.send('Extensions.loadUnpacked', { path: dir });
  } catch (error) {
    throw new RecorderLoadError(loadRefusedMessage(dir, error instanceof Error ? error.message : String(error)), { cause: error });
  }
  const id = (answer as { id?: unknown } | null)?.id;
  if (typeof id !== 'string') throw new RecorderLoadError(`loadRecorder: Extensions.loadUnpacked answered without an id: ${JSON.stringify(answer)}`);
  return id;
}

import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The `http://127.0.0.1:<port>` of a Chromium started by hand with `--remote-debugging-port=0`: it
 * writes the port it chose to `DevToolsActivePort` in its profile. Throws if the browser exits first or
 * takes longer than `timeoutMs`.
 */
export async function devToolsUrl(profile: string, browser: ChildProcess, timeoutMs = 20_000): Promise<string> {
  const portFile = path.join(profile, 'DevToolsActivePort');
  const deadline = Date.now() + timeoutMs;
  while (!/^\d+\n/.test(existsSync(portFile) ? readFileSync(portFile, 'utf8') : '')) {
    if (browser.exitCode !== null || Date.now() > deadline) throw new Error(`Chromium did not serve DevTools (exit code ${browser.exitCode})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return `http://127.0.0.1:${readFileSync(portFile, 'utf8').split('\n')[0]}`;
}

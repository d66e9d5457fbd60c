import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * Chromium's managed policy folder on Linux: Debian's `chromium` package (and Playwright's Chromium)
 * read `/etc/chromium/policies/managed/*.json`; Google Chrome reads `/etc/opt/chrome/policies/managed/`.
 * Every Chromium started on this machine reads the folder: a test keeps its file there only while its
 * own browser needs it.
 */
export const CHROMIUM_POLICY_DIR = '/etc/chromium/policies/managed';

/** Why this machine cannot run a managed-policy test, or null when it can (root writes the policy folder). */
export function policySkipReason(): string | null {
  if (process.platform !== 'linux') return `managed policy files are a Linux recipe; this is ${process.platform}`;
  if (process.getuid?.() !== 0) return `writing ${CHROMIUM_POLICY_DIR} needs root (CI runs e2e as root); this is uid ${process.getuid?.()}`;
  return null;
}

/**
 * A policy file in the managed folder, removed by `remove()` (call it in a finally) with the folders
 * this made, when nothing else is in them.
 */
export function writeManagedPolicy(name: string, policy: object): { file: string; remove(): void } {
  const made = ['/etc/chromium', '/etc/chromium/policies', CHROMIUM_POLICY_DIR].filter((dir) => !existsSync(dir));
  mkdirSync(CHROMIUM_POLICY_DIR, { recursive: true });
  const file = path.join(CHROMIUM_POLICY_DIR, name);
  writeFileSync(file, JSON.stringify(policy, null, 2), { mode: 0o644 });
  return {
    file,
    remove: () => {
      rmSync(file, { force: true });
      for (const dir of made.reverse()) {
        try {
          rmdirSync(dir); // only when empty: another test's policy file stays
        } catch {
          break;
        }
      }
    },
  };
}

/** Serves a fleet package (the update manifest and the `.crx`) from loopback, as a team's update server would. */
export async function serveFleetPackage(dir: string): Promise<{ baseUrl: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url.pathname);
    const name = path.basename(url.pathname);
    const file = path.join(dir, name);
    if (!/^[\w.-]+\.(xml|crx)$/.test(name) || !existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': name.endsWith('.xml') ? 'text/xml' : 'application/x-chrome-extension' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { baseUrl, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

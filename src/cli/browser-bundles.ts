import { connectRecorder } from '../client/connect';
import type { PlaywrightContextLike } from '../client/ports';
import type { RecorderClient } from '../client/recorder-client';
import { errorMessage } from '../shared/error-message';
import { BundleReadError } from '../reads/errors';
import type { BundleEntry, BundleSource } from './bundle-source';

/** What `afr mcp --cdp` needs of Playwright: a CDP connection to a running browser. */
interface CdpBrowser {
  contexts(): PlaywrightContextLike[];
  close(): Promise<void>;
}
type ConnectOverCdp = (endpoint: string) => Promise<CdpBrowser>;

/** Bundles exported from the browser, kept by id (a stored bundle never changes): a model reads one bundle many times. */
const CACHED_BUNDLES = 4;

/**
 * Playwright's `connectOverCDP`, loaded on use: `playwright-core` is not part of `afr` (the client
 * depends on no driver); `afr mcp --cdp` needs it installed beside it.
 */
async function playwrightConnect(): Promise<ConnectOverCdp> {
  const name = 'playwright-core';
  const module = (await import(/* @vite-ignore */ name).catch(() => null)) as { chromium: { connectOverCDP: ConnectOverCdp } } | null;
  if (!module) throw new Error('afr mcp --cdp needs playwright-core: npm install playwright-core');
  return (endpoint) => module.chromium.connectOverCDP(endpoint);
}

/**
 * The bundles the recorder of a running browser has stored (`--cdp http://127.0.0.1:9222`), through the
 * published client (`connectRecorder`): listed with `bundles()`, read with `exportBundle(id)`. The
 * connection is made on first use and kept; a browser that cannot be reached is a note in the list and
 * a one-line error on read, and the folder's bundles still answer.
 */
export function browserSource(endpoint: string, connect: () => Promise<ConnectOverCdp> = playwrightConnect): BundleSource & { close(): Promise<void> } {
  let session: Promise<{ browser: CdpBrowser; recorder: RecorderClient }> | null = null;
  const cache = new Map<string, Uint8Array>();
  const open = () =>
    (session ??= (async () => {
      const browser = await (await connect())(endpoint);
      const context = browser.contexts()[0];
      if (!context) throw new Error('the browser has no default context');
      return { browser, recorder: await connectRecorder(context, { timeoutMs: 5_000 }) };
    })().catch((error: unknown) => {
      session = null;
      throw error;
    }));
  return {
    names: (bundle) => /^[\w.-]+$/.test(bundle) && !bundle.endsWith('.zip'),
    async list() {
      try {
        const { recorder } = await open();
        const bundles: BundleEntry[] = (await recorder.bundles()).map((b) => ({ id: b.id, source: 'browser', created_at: b.createdAt, bytes: b.sizeBytes, reason: b.reason, label: b.label }));
        return { bundles, notes: [] };
      } catch (error) {
        return { bundles: [], notes: [`the recorder at ${endpoint} was not reached: ${errorMessage(error).split('\n')[0]}`] };
      }
    },
    async read(bundle) {
      const cached = cache.get(bundle);
      if (cached) return cached;
      let zip: Uint8Array;
      try {
        const { recorder } = await open();
        zip = new Uint8Array(await recorder.exportBundle(bundle));
      } catch (error) {
        throw new BundleReadError(`not read from the recorder at ${endpoint}: ${errorMessage(error).split('\n')[0]}`);
      }
      cache.set(bundle, zip);
      if (cache.size > CACHED_BUNDLES) cache.delete(cache.keys().next().value!);
      return zip;
    },
    async close() {
      const current = session;
      session = null;
      if (current) await (await current.catch(() => null))?.browser.close();
    },
  };
}

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RecorderLoadError } from './errors';
import { loadRecorder } from './load-recorder';

// Any folder with a manifest.json is an unpacked extension to the browser; the fixture one stands in for the build.
const here = path.dirname(fileURLToPath(import.meta.url));
const EXTENSION_DIR = path.resolve(here, '../../test/fixtures/unpacked-extension');

describe('loadRecorder', () => {
  it('asks the browser to load the absolute folder and resolves to the id it gives', async () => {
    const sent: unknown[] = [];
    const id = await loadRecorder(
      { send: async (method, params) => (sent.push([method, params]), { id: 'jaaohpahabfabmkanbnjkhpfligimhfi' }) },
      path.relative(process.cwd(), EXTENSION_DIR),
    );
    expect(id).toBe('jaaohpahabfabmkanbnjkhpfligimhfi');
    expect(sent).toEqual([['Extensions.loadUnpacked', { path: EXTENSION_DIR }]]);
  });

  it('says which flags the browser needs when it does not offer the Extensions domain', async () => {
    const refusing = { send: () => Promise.reject(new Error('Protocol error (Extensions.loadUnpacked): Method not available.')) };
    const error = await loadRecorder(refusing, EXTENSION_DIR).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecorderLoadError);
    expect((error as Error).message).toBe(
      `loadRecorder: the browser refused to load ${EXTENSION_DIR}: Method not available. The browser does not offer the Extensions domain on this connection: start it with --enable-unsafe-extension-debugging, and for Google Chrome connect through --remote-debugging-pipe (Puppeteer: launch with pipe: true).`,
    );
  });

  it('refuses a folder without manifest.json before asking the browser', async () => {
    let asked = false;
    const error = await loadRecorder({ send: async () => ((asked = true), { id: 'x' }) }, here).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecorderLoadError);
    expect((error as Error).message).toContain(`no manifest.json in ${here}`);
    expect(asked).toBe(false);
  });
});

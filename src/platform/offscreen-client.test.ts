import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClipEncodeMessage } from '../../schemas/messages';

// `wxt/browser` is Chrome's own `chrome` in the extension: here, the `chrome` each test stubs.
vi.mock('wxt/browser', () => ({
  get browser() {
    return globalThis.chrome;
  },
}));

/** Just enough of `chrome` for the client: contexts, offscreen documents, runtime messages. */
function fakeChrome(answer: (message: unknown) => Promise<unknown>) {
  let documents = 0;
  const chromeFake = {
    runtime: {
      // Like Chrome's: the path is resolved against the extension's root.
      getURL: (path: string) => new URL(path, 'chrome-extension://id/').href,
      getContexts: vi.fn(() => Promise.resolve(Array.from({ length: documents }, () => ({ contextType: 'OFFSCREEN_DOCUMENT' })))),
      sendMessage: vi.fn(answer),
    },
    offscreen: {
      createDocument: vi.fn(async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (documents > 0) throw new Error('Only a single offscreen document may be created.');
        documents += 1;
      }),
    },
  };
  return chromeFake;
}

const message: ClipEncodeMessage = { type: 'clip/encode', job_id: 'job-1', frames: [{ key: 1, duration_ms: 500 }] };
const good = { ok: true, job_id: 'job-1', size_bytes: 1234, duration_seconds: 0.5, encoder: 'fake', encode_ms: 10 };

describe('offscreen client', () => {
  beforeEach(() => vi.resetModules());
  afterEach(() => vi.unstubAllGlobals());

  async function load(answer: (message: unknown) => Promise<unknown>) {
    const chromeFake = fakeChrome(answer);
    vi.stubGlobal('chrome', chromeFake);
    return { chromeFake, client: await import('./offscreen-client') };
  }

  it('creates one offscreen document for concurrent callers', async () => {
    const { chromeFake, client } = await load(() => Promise.resolve(good));
    await Promise.all([client.ensureOffscreenDocument(), client.ensureOffscreenDocument(), client.encodeClip(message)]);
    await client.ensureOffscreenDocument();
    expect(chromeFake.offscreen.createDocument).toHaveBeenCalledOnce();
    expect(chromeFake.offscreen.createDocument).toHaveBeenCalledWith({
      url: 'offscreen.html',
      reasons: ['WORKERS'],
      justification: expect.any(String),
    });
    expect(chromeFake.runtime.getContexts).toHaveBeenCalledWith({
      contextTypes: ['OFFSCREEN_DOCUMENT'],
      documentUrls: ['chrome-extension://id/offscreen.html'],
    });
  });

  it('passes a valid answer through', async () => {
    const { chromeFake, client } = await load(() => Promise.resolve(good));
    await expect(client.encodeClip(message)).resolves.toEqual(good);
    expect(chromeFake.runtime.sendMessage).toHaveBeenCalledWith(message);
  });

  it.each([
    ['an invalid answer', () => Promise.resolve({ ok: true }), /invalid answer/],
    ['no answer', () => Promise.resolve(undefined), /invalid answer/],
    ['no receiver', () => Promise.reject(new Error('Could not establish connection. Receiving end does not exist.')), /Receiving end/],
  ])('turns %s into ok: false', async (_name, answer, error) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { client } = await load(answer);
    await expect(client.encodeClip(message)).resolves.toEqual({ ok: false, job_id: 'job-1', error: expect.stringMatching(error) });
  });

  it('warms the encoder up', async () => {
    const { chromeFake, client } = await load(() => Promise.resolve({ ok: true, encoder: 'fake', load_ms: 200 }));
    await expect(client.warmupClipEncoder()).resolves.toEqual({ ok: true, encoder: 'fake', load_ms: 200 });
    expect(chromeFake.runtime.sendMessage).toHaveBeenCalledWith({ type: 'clip/warmup' });
  });

  it('in a browser without offscreen documents (Firefox), answers ok: false without sending anything', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { offscreen: _absent, ...firefoxLike } = fakeChrome(() => Promise.resolve(good));
    vi.stubGlobal('chrome', firefoxLike);
    const client = await import('./offscreen-client');
    await expect(client.encodeClip(message)).resolves.toEqual({ ok: false, job_id: 'job-1', error: expect.stringMatching(/no offscreen documents/) });
    await expect(client.warmupClipEncoder()).resolves.toEqual({ ok: false, error: expect.stringMatching(/no offscreen documents/) });
    expect(firefoxLike.runtime.sendMessage).not.toHaveBeenCalled();
  });
});

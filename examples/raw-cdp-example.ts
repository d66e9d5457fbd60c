import WebSocket from 'ws';

export interface RawCdpResult {
  /** The target the status came from: the recorder's service worker. */
  target: { targetId: string; type: string; url: string };
  status: { recording: boolean; frames: number; bundles: number };
}

/**
 * The raw DevTools protocol example of docs/drivers/raw-cdp.md (what a framework without Playwright or Puppeteer does,
 * in any language): find the recorder's service worker among the browser's targets by its URL, attach,
 * and call `afr.status()` with `Runtime.evaluate`. Only `ws` and `fetch`.
 */
export async function recorderStatusOverCdp(browserURL: string): Promise<RawCdpResult> {
  // #region docs
  // 1. The browser's own endpoint (not a page's): GET <browserURL>/json/version.
  const version = (await (await fetch(`${browserURL}/json/version`)).json()) as { webSocketDebuggerUrl: string };
  const ws = new WebSocket(version.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  type Reply = { id?: number; result?: Record<string, unknown>; error?: { message: string } };
  const waiting = new Map<number, (reply: Reply) => void>();
  ws.on('message', (data) => {
    const reply = JSON.parse(String(data)) as Reply;
    if (reply.id === undefined) return; // an event, not a reply
    waiting.get(reply.id)?.(reply);
    waiting.delete(reply.id);
  });
  let lastId = 0;
  const send = (method: string, params: object = {}, sessionId?: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = ++lastId;
      waiting.set(id, (reply) => (reply.error ? reject(new Error(`${method}: ${reply.error.message}`)) : resolve(reply.result ?? {})));
      ws.send(JSON.stringify({ id, method, params, sessionId }));
    });
  const evaluate = async (sessionId: string, expression: string) => {
    const { result, exceptionDetails } = (await send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId)) as {
      result: { value?: unknown };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    };
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
    return result.value;
  };

  // 2. Every target. The extension has more than its worker: its offscreen document (clip encoding,
  //    type "background_page", offscreen.html) is a chrome-extension:// target too, often listed first.
  const { targetInfos } = (await send('Target.getTargets')) as { targetInfos: { targetId: string; type: string; url: string }[] };
  // 3. The worker by its type and URL: chrome-extension://<id>/background.js.
  const workers = targetInfos.filter((t) => t.type === 'service_worker' && /^chrome-extension:\/\/[a-p]{32}\/background\.js$/.test(t.url));
  let found: { target: (typeof workers)[number]; status: unknown } | undefined;
  for (const target of workers) {
    // 4. Attach (flatten: one socket, commands carry the sessionId) and call afr in the worker.
    const { sessionId } = (await send('Target.attachToTarget', { targetId: target.targetId, flatten: true })) as { sessionId: string };
    // Another extension may run a background.js too: the recorder's exposes globalThis.afr.
    if ((await evaluate(sessionId, 'typeof globalThis.afr?.status === "function"')) === true) {
      found = { target, status: await evaluate(sessionId, 'afr.status()') };
    }
    await send('Target.detachFromTarget', { sessionId });
    if (found) break;
  }
  ws.close();
  // No worker listed: Chrome stops an idle extension worker after 30 s; loading a page wakes it.
  if (!found) throw new Error(`no service worker exposing afr among ${workers.length} extension workers`);
  // #endregion
  return found as RawCdpResult;
}

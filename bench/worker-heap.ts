import WebSocket from 'ws';

/**
 * The JS heap of the extension's service worker, read over the DevTools protocol of a Chromium
 * started with `--remote-debugging-port` (the worker itself has no heap API without cross-origin
 * isolation). `used()` collects garbage first: what stays is what the recorder holds on to.
 */
export interface WorkerHeap {
  used(): Promise<number>;
  close(): void;
}

export async function connectWorkerHeap(port: number, extensionId: string): Promise<WorkerHeap> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { type: string; url: string; webSocketDebuggerUrl: string }[];
  const worker = targets.find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${extensionId}/`));
  if (!worker) throw new Error(`no service worker of ${extensionId} among ${targets.length} targets`);
  const socket = new WebSocket(worker.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let nextId = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
    const call = message.id === undefined ? undefined : pending.get(message.id);
    if (!call) return;
    pending.delete(message.id!);
    if (message.error) call.reject(new Error(message.error.message));
    else call.resolve(message.result);
  });
  const send = (method: string) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method }));
    });
  return {
    async used() {
      await send('HeapProfiler.collectGarbage');
      const { usedSize } = (await send('Runtime.getHeapUsage')) as { usedSize: number };
      return usedSize;
    },
    close: () => socket.close(),
  };
}

import type { FrameMeta, FrameStore, NewFrame } from '../ring/ports';
import { openRecorderDb } from './db';

/** Copies a view's bytes into a standalone ArrayBuffer (IndexedDB stores whole buffers). */
function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.slice().buffer;
}

/** `FrameStore` over IndexedDB: metadata in `frames`, JPEG bytes in `frameData`, one transaction per write. */
export class IdbFrameStore implements FrameStore {
  async add(frame: NewFrame, jpeg: Uint8Array): Promise<FrameMeta> {
    const db = await openRecorderDb();
    const tx = db.transaction(['frames', 'frameData'], 'readwrite');
    // `frames` generates the key (and injects it into the stored record through its keyPath).
    const key = await tx.objectStore('frames').add(frame as FrameMeta);
    await Promise.all([tx.objectStore('frameData').put({ key, jpeg: toArrayBuffer(jpeg) }), tx.done]);
    return { ...frame, key };
  }

  async listMeta(): Promise<FrameMeta[]> {
    const db = await openRecorderDb();
    return db.getAll('frames');
  }

  async readJpeg(key: number): Promise<Uint8Array | undefined> {
    const db = await openRecorderDb();
    const row = await db.get('frameData', key);
    return row ? new Uint8Array(row.jpeg) : undefined;
  }

  async delete(keys: readonly number[]): Promise<void> {
    if (keys.length === 0) return;
    const db = await openRecorderDb();
    const tx = db.transaction(['frames', 'frameData'], 'readwrite');
    await Promise.all([
      ...keys.flatMap((key) => [tx.objectStore('frames').delete(key), tx.objectStore('frameData').delete(key)]),
      tx.done,
    ]);
  }
}

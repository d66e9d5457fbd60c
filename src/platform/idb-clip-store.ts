import type { ClipStorage } from '../clip/ports';
import { openRecorderDb } from './db';
import { IdbFrameStore } from './idb-frame-store';

/** The bytes as a standalone ArrayBuffer, without copying when the view already covers one whole. */
function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  return whole ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer;
}

/** Stores an encoded clip under its job id (offscreen document → service worker hand-off). */
export async function writeClip(jobId: string, mp4: Uint8Array): Promise<void> {
  const db = await openRecorderDb();
  await db.put('clips', { jobId, mp4: toArrayBuffer(mp4) });
}

/** The mp4 an encode job stored, or undefined. */
export async function readClip(jobId: string): Promise<Uint8Array | undefined> {
  const db = await openRecorderDb();
  const row = await db.get('clips', jobId);
  return row ? new Uint8Array(row.mp4) : undefined;
}

/** Removes a job's clip once it is in a bundle (or abandoned). */
export async function deleteClip(jobId: string): Promise<void> {
  const db = await openRecorderDb();
  await db.delete('clips', jobId);
}

/** `ClipStorage` for the offscreen document: frames from the frame store, clips to the clips store. */
export function createIdbClipStorage(frames = new IdbFrameStore()): ClipStorage {
  return { readJpeg: (key) => frames.readJpeg(key), writeClip };
}

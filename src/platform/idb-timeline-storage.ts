import type { TimelineData, TimelineEntry } from '../../schemas/timeline';
import type { TimelineDocMeta, TimelineStorage } from '../timeline/store/ports';
import { openRecorderDb } from './db';

const metaKey = (id: string) => `m/${id}`;
const baseKey = (id: string) => `b/${id}`;
/** Zero-padded so that a document's chunks sort in order under its prefix. */
const chunkKey = (id: string, n: number) => `c/${id}/${String(n).padStart(8, '0')}`;
/** Every key starting with `prefix` (no key holds U+FFFF). */
const prefixRange = (prefix: string) => IDBKeyRange.bound(prefix, `${prefix}\uffff`);

/** `TimelineStorage` over the IndexedDB `timeline` store (see `RecorderDb`). */
export class IdbTimelineStorage implements TimelineStorage {
  async loadMetas(): Promise<TimelineDocMeta[]> {
    return (await (await openRecorderDb()).getAll('timeline', prefixRange('m/'))) as TimelineDocMeta[];
  }

  async putMeta(meta: TimelineDocMeta): Promise<void> {
    await (await openRecorderDb()).put('timeline', meta, metaKey(meta.documentId));
  }

  async putBase(documentId: string, base: TimelineData): Promise<void> {
    await (await openRecorderDb()).put('timeline', base, baseKey(documentId));
  }

  async getBase(documentId: string): Promise<TimelineData | null> {
    return ((await (await openRecorderDb()).get('timeline', baseKey(documentId))) as TimelineData | undefined) ?? null;
  }

  async putChunk(documentId: string, n: number, entries: TimelineEntry[]): Promise<void> {
    await (await openRecorderDb()).put('timeline', entries, chunkKey(documentId, n));
  }

  async getChunks(documentId: string, ns: readonly number[]): Promise<TimelineEntry[][]> {
    const tx = (await openRecorderDb()).transaction('timeline');
    const rows = await Promise.all(ns.map((n) => tx.store.get(chunkKey(documentId, n))));
    await tx.done;
    return rows.map((row) => (Array.isArray(row) ? (row as TimelineEntry[]) : []));
  }

  async deleteChunks(documentId: string, ns: readonly number[]): Promise<void> {
    if (!ns.length) return;
    const tx = (await openRecorderDb()).transaction('timeline', 'readwrite');
    await Promise.all([...ns.map((n) => tx.store.delete(chunkKey(documentId, n))), tx.done]);
  }

  async deleteDocument(documentId: string): Promise<void> {
    const tx = (await openRecorderDb()).transaction('timeline', 'readwrite');
    await Promise.all([
      tx.store.delete(metaKey(documentId)),
      tx.store.delete(baseKey(documentId)),
      tx.store.delete(prefixRange(`c/${documentId}/`)),
      tx.done,
    ]);
  }
}

import type { TimelineData, TimelineEntry } from '../../schemas/timeline';
import type { TimelineDocMeta, TimelineStorage } from '../../src/timeline/store/ports';

/** `TimelineStorage` in memory, for tests (the worker keeps its timeline in IndexedDB: `IdbTimelineStorage`). */
export class MemoryTimelineStorage implements TimelineStorage {
  readonly metas = new Map<string, TimelineDocMeta>();
  readonly bases = new Map<string, TimelineData>();
  readonly chunks = new Map<string, TimelineEntry[]>();

  async loadMetas(): Promise<TimelineDocMeta[]> {
    return [...this.metas.values()].map((m) => structuredClone(m));
  }
  async putMeta(meta: TimelineDocMeta): Promise<void> {
    this.metas.set(meta.documentId, structuredClone(meta));
  }
  async putBase(documentId: string, base: TimelineData): Promise<void> {
    this.bases.set(documentId, base);
  }
  async getBase(documentId: string): Promise<TimelineData | null> {
    return this.bases.get(documentId) ?? null;
  }
  async putChunk(documentId: string, n: number, entries: TimelineEntry[]): Promise<void> {
    this.chunks.set(`${documentId}/${n}`, entries);
  }
  async getChunks(documentId: string, ns: readonly number[]): Promise<TimelineEntry[][]> {
    return ns.map((n) => this.chunks.get(`${documentId}/${n}`) ?? []);
  }
  async deleteChunks(documentId: string, ns: readonly number[]): Promise<void> {
    for (const n of ns) this.chunks.delete(`${documentId}/${n}`);
  }
  async deleteDocument(documentId: string): Promise<void> {
    this.metas.delete(documentId);
    this.bases.delete(documentId);
    for (const key of [...this.chunks.keys()]) if (key.startsWith(`${documentId}/`)) this.chunks.delete(key);
  }
}

import type { OutboxEntry } from '../../schemas/upload';
import type { OutboxStore } from '../../src/upload/ports';

/** The outbox in memory, copying entries in and out as IndexedDB's structured clone does. */
export class MemoryOutbox implements OutboxStore {
  readonly entries = new Map<string, OutboxEntry>();
  async get(bundleId: string) {
    const entry = this.entries.get(bundleId);
    return entry && structuredClone(entry);
  }
  async put(entry: OutboxEntry) {
    this.entries.set(entry.bundleId, structuredClone(entry));
  }
  async list() {
    return [...this.entries.values()].map((e) => structuredClone(e));
  }
  async delete(bundleId: string) {
    this.entries.delete(bundleId);
  }
}

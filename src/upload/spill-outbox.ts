import type { OutboxEntry } from '../../schemas/upload';
import type { OutboxStore } from './ports';

/**
 * The outbox over IndexedDB, with somewhere to go when IndexedDB refuses an entry (out of quota): an
 * overflow store that outlives the worker (`chrome.storage.local`), and memory when even that refuses.
 * Reads merge the three, the most recent write winning (memory, then overflow, then IndexedDB).
 */
export class SpillOutbox implements OutboxStore {
  private readonly memory = new Map<string, OutboxEntry>();

  constructor(
    private readonly primary: OutboxStore,
    private readonly overflow: OutboxStore,
    private readonly isFull: (error: unknown) => boolean,
    private readonly onSpill: (where: 'overflow' | 'memory', error: unknown) => void,
  ) {}

  async put(entry: OutboxEntry): Promise<void> {
    try {
      await this.primary.put(entry);
      this.memory.delete(entry.bundleId);
      if (await this.overflow.get(entry.bundleId).catch(() => undefined)) await this.overflow.delete(entry.bundleId);
      return;
    } catch (error) {
      if (!this.isFull(error)) throw error;
      try {
        await this.overflow.put(entry);
        this.memory.delete(entry.bundleId);
        this.onSpill('overflow', error);
      } catch (overflowError) {
        this.memory.set(entry.bundleId, structuredClone(entry));
        this.onSpill('memory', overflowError);
      }
    }
  }

  async get(bundleId: string): Promise<OutboxEntry | undefined> {
    const held = this.memory.get(bundleId);
    if (held) return structuredClone(held);
    return (await this.overflow.get(bundleId).catch(() => undefined)) ?? this.primary.get(bundleId);
  }

  async list(): Promise<OutboxEntry[]> {
    const [stored, overflow] = await Promise.all([this.primary.list(), this.overflow.list().catch(() => [])]);
    const byId = new Map<string, OutboxEntry>();
    for (const entry of [...stored, ...overflow, ...[...this.memory.values()].map((e) => structuredClone(e))]) byId.set(entry.bundleId, entry);
    return [...byId.values()];
  }

  async delete(bundleId: string): Promise<void> {
    this.memory.delete(bundleId);
    await Promise.all([this.primary.delete(bundleId), this.overflow.delete(bundleId).catch(() => undefined)]);
  }
}

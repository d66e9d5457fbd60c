import type { OutboxEntry } from '../../schemas/upload';
import type { OutboxStore } from '../upload/ports';
import { openRecorderDb } from './db';

/** The upload outbox over IndexedDB (`outbox`, one entry per bundle id): it outlives the worker and the browser. */
export class IdbOutboxStore implements OutboxStore {
  async get(bundleId: string): Promise<OutboxEntry | undefined> {
    return (await openRecorderDb()).get('outbox', bundleId);
  }

  async put(entry: OutboxEntry): Promise<void> {
    await (await openRecorderDb()).put('outbox', entry);
  }

  async list(): Promise<OutboxEntry[]> {
    return (await openRecorderDb()).getAll('outbox');
  }

  async delete(bundleId: string): Promise<void> {
    await (await openRecorderDb()).delete('outbox', bundleId);
  }
}

import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../schemas/upload';
import { DB_NAME } from './db';
import { IdbBundleStore } from './idb-bundle-store';
import { IdbOutboxStore } from './idb-outbox-store';

describe('IdbOutboxStore', () => {
  it('adds the outbox to a database of the first version, keeping its bundles', async () => {
    // A recorder of the first version stored a bundle.
    const old = await openDB(DB_NAME, 1, {
      upgrade(db) {
        for (const name of ['frameData', 'bundles', 'bundleData']) db.createObjectStore(name, { keyPath: name === 'frameData' ? 'key' : 'id' });
        db.createObjectStore('frames', { keyPath: 'key', autoIncrement: true }).createIndex('ts', 'ts');
        db.createObjectStore('steps', { keyPath: 'seq' }).createIndex('ts', 'ts');
        db.createObjectStore('clips', { keyPath: 'jobId' });
        db.createObjectStore('meta');
      },
    });
    const summary = { id: 'afr-1', createdAt: '2026-11-25T00:00:00.000Z', reason: 'x', label: null, tabId: 1, url: null, sizeBytes: 1, downloadId: null };
    await old.put('bundles', summary);
    await old.put('bundleData', { id: 'afr-1', zip: new Uint8Array([7]).buffer });
    old.close();

    const outbox = new IdbOutboxStore();
    const entry = { bundleId: 'afr-1', state: 'pending', attempts: 0 } as OutboxEntry;
    await outbox.put(entry);
    expect(await outbox.get('afr-1')).toEqual(entry);
    expect(await outbox.list()).toEqual([entry]);
    expect((await new IdbBundleStore().list()).map((b) => b.id)).toEqual(['afr-1']);
    await outbox.delete('afr-1');
    expect(await outbox.list()).toEqual([]);
  });
});

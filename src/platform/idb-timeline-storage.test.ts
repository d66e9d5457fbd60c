import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../schemas/upload';
import type { TimelineData } from '../../schemas/timeline';
import { DB_NAME } from './db';
import { IdbOutboxStore } from './idb-outbox-store';
import { IdbTimelineStorage } from './idb-timeline-storage';

const base: TimelineData = {
  version: 1,
  document_id: 'doc-1',
  base: { at: 1, root: 1, records: [{ id: 1, tag: 'html' }], changes: 0, truncated: false },
  entries: [],
  bytes: { base: 20, entries: 0 },
};
const meta = { documentId: 'doc-1', tabId: 7, startedAt: 1, updatedAt: 2, received: 1, broken: false, baseBytes: 20, chunks: [{ n: 0, lastAt: 2, bytes: 10 }], nextChunk: 1 };

describe('IdbTimelineStorage', () => {
  it('adds the timeline to a database of version 2, keeping its outbox', async () => {
    // A recorder of version 2 had a bundle on its way to object storage.
    const old = await openDB(DB_NAME, 2, {
      upgrade(db) {
        for (const name of ['frameData', 'bundles', 'bundleData']) db.createObjectStore(name, { keyPath: name === 'frameData' ? 'key' : 'id' });
        db.createObjectStore('frames', { keyPath: 'key', autoIncrement: true }).createIndex('ts', 'ts');
        db.createObjectStore('steps', { keyPath: 'seq' }).createIndex('ts', 'ts');
        db.createObjectStore('clips', { keyPath: 'jobId' });
        db.createObjectStore('meta');
        db.createObjectStore('outbox', { keyPath: 'bundleId' });
      },
    });
    const entry = { bundleId: 'afr-1', state: 'pending', attempts: 0 } as OutboxEntry;
    await old.put('outbox', entry);
    old.close();

    const storage = new IdbTimelineStorage();
    await storage.putBase('doc-1', base);
    await storage.putChunk('doc-1', 0, [{ kind: 'checkpoint', at: 2, seq: 0, label: 'load page', changes: 0, url: 'https://shop.test/', title: 'Shop', truncated: false }]);
    await storage.putMeta(meta);
    expect(await storage.loadMetas()).toEqual([meta]);
    expect(await storage.getBase('doc-1')).toEqual(base);
    expect((await storage.getChunks('doc-1', [0, 1])).map((c) => c.length)).toEqual([1, 0]);
    expect(await new IdbOutboxStore().list()).toEqual([entry]);

    await storage.deleteDocument('doc-1');
    expect(await storage.loadMetas()).toEqual([]);
    expect(await storage.getBase('doc-1')).toBeNull();
    expect((await storage.getChunks('doc-1', [0]))[0]).toEqual([]);
  });
});

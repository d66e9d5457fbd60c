import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { FrameMeta } from '../ring/ports';
import type { Step } from '../../schemas/steps';
import type { BundleSummary } from '../../schemas/api';
import type { OutboxEntry } from '../../schemas/upload';
import type { TimelineData, TimelineEntry } from '../../schemas/timeline';
import type { TimelineDocMeta } from '../timeline/store/ports';
import { onceUntilFailure } from '../shared/once-until-failure';

/**
 * The extension's IndexedDB database, shared by the service worker and the offscreen document
 * (same extension origin). Pixels and zips live in their own stores so metadata scans stay cheap.
 */
export interface RecorderDb extends DBSchema {
  frames: { key: number; value: FrameMeta; indexes: { ts: number } };
  frameData: { key: number; value: { key: number; jpeg: ArrayBuffer } };
  steps: { key: number; value: Step; indexes: { ts: number } };
  bundles: { key: string; value: BundleSummary };
  bundleData: { key: string; value: { id: string; zip: ArrayBuffer } };
  /** Encoded clips handed from the offscreen document back to the service worker. */
  clips: { key: string; value: { jobId: string; mp4: ArrayBuffer } };
  meta: { key: string; value: unknown };
  /** Bundles on their way to object storage (version 2). */
  outbox: { key: string; value: OutboxEntry };
  /**
   * The DOM timeline (version 3), out-of-line string keys: `m/<document>` what is known of a
   * document, `b/<document>` its base, `c/<document>/<n>` its batches of entries.
   */
  timeline: { key: string; value: TimelineDocMeta | TimelineData | TimelineEntry[] };
}

export const DB_NAME = 'agent-flight-recorder';
/** 1: frames, steps, bundles, clips, meta; 2: the upload outbox; 3: the DOM timeline. */
export const DB_VERSION = 3;

/** Opens (once per context) the recorder database, creating its stores on first use. */
export const openRecorderDb = onceUntilFailure(() =>
  openDB<RecorderDb>(DB_NAME, DB_VERSION, {
    upgrade(db, oldVersion) {
      if (oldVersion < 1) createVersion1(db);
      if (oldVersion < 2) db.createObjectStore('outbox', { keyPath: 'bundleId' });
      if (oldVersion < 3) db.createObjectStore('timeline');
    },
    // The browser closed the connection (storage cleared, a backing store error): the next call opens another.
    terminated() {
      openRecorderDb.forget();
    },
  }),
);

/** The stores of the first version: frames, steps, bundles, clips, meta. */
function createVersion1(db: IDBPDatabase<RecorderDb>): void {
  const frames = db.createObjectStore('frames', { keyPath: 'key', autoIncrement: true });
  frames.createIndex('ts', 'ts');
  db.createObjectStore('frameData', { keyPath: 'key' });
  const steps = db.createObjectStore('steps', { keyPath: 'seq' });
  steps.createIndex('ts', 'ts');
  db.createObjectStore('bundles', { keyPath: 'id' });
  db.createObjectStore('bundleData', { keyPath: 'id' });
  db.createObjectStore('clips', { keyPath: 'jobId' });
  db.createObjectStore('meta');
}

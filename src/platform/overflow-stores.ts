import { browser, type Browser } from 'wxt/browser';
import type { BundleSummary } from '../../schemas/api';
import { OutboxEntrySchema, type OutboxEntry } from '../../schemas/upload';
import { newestFirst, type BundleStore } from '../bundle/ports';
import { base64ToBytes, bytesToBase64 } from '../shared/base64';
import type { OutboxStore } from '../upload/ports';

/**
 * Where a bundle and its outbox entry go when IndexedDB refuses them (the origin out of quota):
 * `chrome.storage.local`, the extension's own settings database, outside the origin's IndexedDB quota.
 * It outlives a worker stop, so a bundle waiting for delivery is not lost with the worker's memory.
 * Values must be JSON: the zip goes as base64 (a third larger); with `unlimitedStorage` there is no cap,
 * without it 10 MB (https://developer.chrome.com/docs/extensions/reference/api/storage#property-local).
 */
const BUNDLE_INDEX = 'afr-overflow-bundles';
const OUTBOX = 'afr-overflow-outbox';
const dataKey = (id: string) => `afr-overflow-bundle:${id}`;

/** Runs read-modify-write steps on one key one after the other. */
function serial() {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(step: () => Promise<T>): Promise<T> => {
    const next = last.then(step, step);
    last = next.catch(() => undefined);
    return next;
  };
}

export class OverflowBundleStore implements BundleStore {
  private readonly queue = serial();
  constructor(private readonly area: Browser.storage.StorageArea = browser.storage.local) {}

  private async index(): Promise<BundleSummary[]> {
    const rows = (await this.area.get(BUNDLE_INDEX))[BUNDLE_INDEX];
    return Array.isArray(rows) ? (rows as BundleSummary[]) : [];
  }

  save(summary: BundleSummary, zip: Uint8Array): Promise<void> {
    return this.queue(async () => {
      await this.area.set({ [dataKey(summary.id)]: bytesToBase64(zip) });
      const rows = (await this.index()).filter((s) => s.id !== summary.id);
      await this.area.set({ [BUNDLE_INDEX]: [...rows, summary] });
    });
  }

  async list(): Promise<BundleSummary[]> {
    return (await this.index()).sort(newestFirst);
  }

  async read(id: string): Promise<Uint8Array | undefined> {
    const value = (await this.area.get(dataKey(id)))[dataKey(id)];
    return typeof value === 'string' ? base64ToBytes(value) : undefined;
  }

  delete(id: string): Promise<boolean> {
    return this.queue(async () => {
      const rows = await this.index();
      if (!rows.some((s) => s.id === id)) return false;
      await this.area.remove(dataKey(id));
      await this.area.set({ [BUNDLE_INDEX]: rows.filter((s) => s.id !== id) });
      return true;
    });
  }

  setDownloadId(id: string, downloadId: number): Promise<void> {
    return this.queue(async () => {
      const rows = await this.index();
      if (rows.some((s) => s.id === id)) await this.area.set({ [BUNDLE_INDEX]: rows.map((s) => (s.id === id ? { ...s, downloadId } : s)) });
    });
  }
}

/** Outbox entries IndexedDB refused, in one `chrome.storage.local` value; each read back is validated. */
export class OverflowOutboxStore implements OutboxStore {
  private readonly queue = serial();
  constructor(private readonly area: Browser.storage.StorageArea = browser.storage.local) {}

  private async all(): Promise<Record<string, OutboxEntry>> {
    const raw = (await this.area.get(OUTBOX))[OUTBOX];
    if (raw === null || typeof raw !== 'object') return {};
    return Object.fromEntries(Object.entries(raw).flatMap(([id, entry]) => {
      const parsed = OutboxEntrySchema.safeParse(entry);
      return parsed.success ? [[id, parsed.data]] : [];
    }));
  }

  async get(bundleId: string): Promise<OutboxEntry | undefined> {
    return (await this.all())[bundleId];
  }

  put(entry: OutboxEntry): Promise<void> {
    return this.queue(async () => this.area.set({ [OUTBOX]: { ...(await this.all()), [entry.bundleId]: entry } }));
  }

  async list(): Promise<OutboxEntry[]> {
    return Object.values(await this.all());
  }

  delete(bundleId: string): Promise<void> {
    return this.queue(async () => {
      const entries = await this.all();
      if (!(bundleId in entries)) return;
      delete entries[bundleId];
      await this.area.set({ [OUTBOX]: entries });
    });
  }
}

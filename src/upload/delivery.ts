import type { OutboxEntry } from '../../schemas/upload';
import type { Clock } from '../shared/clock';
import { errorMessage } from '../shared/error-message';
import { DEFAULT_BACKOFF, retryDelayMs, type BackoffPolicy } from './backoff';
import { checksumsOf } from './checksums';
import { indexRecordOf, type Origin } from './index-record';
import { isDue } from './outbox';
import type { ObjectTarget, OutboxStore } from './ports';
import { UploadError } from './upload-error';

const MiB = 1024 * 1024;

/** The delivery settings in force, as a target to write to and a key that changes when they do. */
export interface ActiveTarget {
  target: ObjectTarget;
  /** A digest of the delivery settings: an entry that failed on auth or config waits until it changes. */
  settingsKey: string;
}

export interface DeliveryOptions {
  outbox: OutboxStore;
  readBundle(bundleId: string): Promise<Uint8Array | undefined>;
  /** Null while delivery is off. */
  activeTarget(): Promise<ActiveTarget | null>;
  /** What the index object says of the extension and browser. */
  origin(): Origin;
  /** Bundles kept in memory only (IndexedDB refused them): delivered first, since a worker stop loses them. */
  inMemoryOnly?(bundleId: string): boolean;
  clock: Clock;
  random: () => number;
  log: (message: string) => void;
  /** Bundles above this size go up in parts (S3's smallest part is 5 MiB). */
  multipartFromBytes?: number;
  partBytes?: number;
  backoff?: BackoffPolicy;
}

/**
 * Takes bundles from the durable outbox to the store, one at a time, oldest first. A bundle is
 * `delivered` only once the store confirmed its zip (checksum) and then its index object; a network
 * error or a 5xx leaves it `pending` with a backed-off retry time, an auth or config error makes it
 * `failed` until the delivery settings change. Every step is written to the outbox before the next, so
 * a worker or browser stopped mid-upload resumes where it was (at the first unconfirmed part), and
 * since keys are deterministic a retry overwrites rather than copies.
 */
export class Delivery {
  private readonly multipartFromBytes: number;
  private readonly partBytes: number;
  private running: Promise<number | null> | null = null;
  private again = false;

  constructor(private readonly options: DeliveryOptions) {
    this.multipartFromBytes = options.multipartFromBytes ?? 5 * MiB;
    this.partBytes = options.partBytes ?? 8 * MiB;
  }

  /**
   * Delivers every entry that is due; resolves with the time the next one will be (for the alarm that
   * wakes the worker), or null when none waits. Calls while one runs join it and make it look again.
   */
  run(): Promise<number | null> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        let next: number | null;
        do {
          this.again = false;
          next = await this.pass();
        } while (this.again);
        return next;
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  private async pass(): Promise<number | null> {
    const active = await this.options.activeTarget();
    if (!active) return null;
    const atRisk = (e: OutboxEntry) => (this.options.inMemoryOnly?.(e.bundleId) ? 0 : 1);
    const entries = (await this.options.outbox.list()).sort((a, b) => atRisk(a) - atRisk(b) || a.enqueuedAt - b.enqueuedAt);
    for (const entry of entries) {
      if (isDue(entry, this.options.clock.now(), active.settingsKey)) await this.attempt(entry, active);
    }
    const waiting = (await this.options.outbox.list()).filter((e) => e.state === 'pending').map((e) => e.nextAttemptAt);
    return waiting.length ? Math.min(...waiting) : null;
  }

  private async attempt(start: OutboxEntry, { target, settingsKey }: ActiveTarget): Promise<void> {
    const { outbox, clock, log } = this.options;
    let entry: OutboxEntry = { ...start, state: 'uploading' };
    const save = async (change: Partial<OutboxEntry>) => {
      entry = { ...entry, ...change };
      await outbox.put(entry);
    };
    await outbox.put(entry);
    const zip = await this.options.readBundle(entry.bundleId);
    if (!zip && entry.memoryOnly) {
      // Kept in memory because IndexedDB had no room, and the worker stopped before it was delivered.
      const lost = 'lost before delivery: IndexedDB had no room for the bundle and the service worker stopped while it waited in memory';
      await save({ state: 'failed', lastError: lost, failedWith: settingsKey, attempts: entry.attempts + 1 });
      log(`[afr] upload of ${entry.bundleId} failed: ${lost}`);
      return;
    }
    if (!zip) {
      await outbox.delete(entry.bundleId);
      log(`[afr] upload of ${entry.bundleId} dropped: the bundle is no longer stored`);
      return;
    }
    try {
      if (!entry.zipDelivered) {
        // The only time the zip is hashed: its SHA-256 and MD5 go with the request and must come back.
        const sums = await checksumsOf(zip);
        if (entry.sha256 === null) await save({ sha256: sums.sha256Hex, index: await this.indexOf(entry, zip, sums.sha256Hex) });
        else if (sums.sha256Hex !== entry.sha256) throw new UploadError('config', `the stored bundle ${entry.bundleId} no longer has the bytes it was queued with`);
        if (target.multipart && zip.byteLength > this.multipartFromBytes) await this.putInParts(entry, zip, sums.md5Hex, target, save);
        else await target.put({ key: entry.zipKey, bundleId: entry.bundleId, kind: 'zip', body: zip, sums, contentType: 'application/zip' });
        await save({ zipDelivered: true, multipart: null });
      }
      const index = new TextEncoder().encode(`${JSON.stringify(entry.index)}\n`);
      await target.put({ key: entry.indexKey, bundleId: entry.bundleId, kind: 'index', body: index, sums: await checksumsOf(index), contentType: 'application/json' });
      await save({ state: 'delivered', deliveredAt: clock.now(), lastError: null, failedWith: null, attempts: entry.attempts + 1 });
      log(`[afr] delivered ${entry.bundleId} to ${entry.zipKey}`);
    } catch (error) {
      const kind = error instanceof UploadError ? error.kind : 'transient';
      const attempts = entry.attempts + 1;
      const message = errorMessage(error);
      // The store forgot a multipart upload (aborted, expired): start it over.
      const multipart = error instanceof UploadError && error.code === 'NoSuchUpload' ? null : entry.multipart;
      if (kind === 'transient') {
        const wait = retryDelayMs(attempts, this.options.random, this.options.backoff ?? DEFAULT_BACKOFF);
        await save({ state: 'pending', attempts, lastError: message, multipart, nextAttemptAt: clock.now() + wait });
        log(`[afr] upload of ${entry.bundleId} failed (attempt ${attempts}), retrying in ${Math.round(wait / 1000)} s: ${message}`);
      } else {
        await save({ state: 'failed', attempts, lastError: message, multipart, failedWith: settingsKey });
        log(`[afr] upload of ${entry.bundleId} stopped until the upload settings change: ${message}`);
      }
    }
  }

  /** The index object of a bundle, read from its manifest; an unreadable bundle is no use retrying. */
  private async indexOf(entry: OutboxEntry, zip: Uint8Array, sha256Hex: string) {
    try {
      return await indexRecordOf(entry.bundleId, zip, sha256Hex, entry.zipKey, this.options.origin());
    } catch (error) {
      throw new UploadError('config', `the stored bundle ${entry.bundleId} cannot be indexed: ${errorMessage(error)}`);
    }
  }

  /** The zip in parts of `partBytes`, from the first part the store has not confirmed yet. */
  private async putInParts(entry: OutboxEntry, zip: Uint8Array, md5Hex: string, target: ObjectTarget, save: (change: Partial<OutboxEntry>) => Promise<void>): Promise<void> {
    const parts = target.multipart!;
    let progress = entry.multipart;
    if (!progress || progress.partBytes !== this.partBytes) {
      progress = { uploadId: await parts.create(entry.zipKey, 'application/zip'), partBytes: this.partBytes, etags: [] };
      await save({ multipart: progress });
    }
    const count = Math.ceil(zip.byteLength / progress.partBytes);
    for (let n = progress.etags.length; n < count; n++) {
      const body = zip.subarray(n * progress.partBytes, Math.min(zip.byteLength, (n + 1) * progress.partBytes));
      const etag = await parts.uploadPart(entry.zipKey, progress.uploadId, n + 1, body, await checksumsOf(body));
      progress = { ...progress, etags: [...progress.etags, etag] };
      await save({ multipart: progress });
    }
    await parts.complete(entry.zipKey, progress.uploadId, progress.etags, md5Hex);
  }
}

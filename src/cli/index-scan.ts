import { UploadIndexRecordSchema, type UploadIndexRecord } from '../../schemas/upload';
import { indexDayPrefixes } from '../bundle-format/bucket-layout';
import { forEachBounded } from '../shared/bounded-pool';
import { keyPages, MAX_INDEX_BYTES, ObjectTooLargeError, type FleetFilter, type FleetStore, type S3Location } from './fleet';
import type { SkipKind, SkipTally } from './skip-tally';

/** Index objects read at once: enough to hide a store's latency, few enough for any store's rate limits. */
export const INDEX_READS_AT_ONCE = 16;

/** Where a scan is: objects read so far and days done, for a progress line. */
export interface ScanProgress {
  read: number;
  days: number;
  dayCount: number;
}

/** A day's records from somewhere else than its loose objects (`index-compact/`), or null to read them. */
export type CompactedDay = (dayPrefix: string) => Promise<AsyncIterable<unknown> | null>;

export interface ScanOptions {
  /** Each record of the window that passes the filter, as it is read (in no particular order). */
  onRecord(record: UploadIndexRecord): void;
  skipped: SkipTally;
  onProgress?(progress: ScanProgress): void;
  /** Reads at once (default `INDEX_READS_AT_ONCE`). */
  concurrency?: number;
  compacted?: CompactedDay;
}

/** What an object under `index/` is: a record, or why not. */
export function classifyIndexObject(value: unknown): UploadIndexRecord | SkipKind {
  if (typeof value === 'object' && value !== null && 'index_version' in value && (value as { index_version: unknown }).index_version !== 1) return 'another version';
  const parsed = UploadIndexRecordSchema.safeParse(value);
  return parsed.success ? parsed.data : 'not an index record';
}

const decoder = new TextDecoder();

function parseIndexObject(bytes: Uint8Array): UploadIndexRecord | SkipKind {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    return 'not JSON';
  }
  return classifyIndexObject(value);
}

const passes = (record: UploadIndexRecord, filter: FleetFilter) => {
  const ended = Date.parse(record.ended_at);
  return ended >= filter.since && ended <= filter.until && (filter.reason === undefined || record.reason === filter.reason) && (filter.agent === undefined || record.agent === filter.agent);
};

/**
 * Streams the index records of the window, day by day, through `onRecord`: keys are listed a page at
 * a time and read `concurrency` at once, and nothing is kept, so memory stays flat at 100,000 objects.
 * An object that is not an index record (not JSON, another version, too large, another shape) is
 * counted in `skipped`; a failure of the store itself (a refused listing) rejects.
 */
export async function scanIndex(store: FleetStore, at: S3Location, filter: FleetFilter, options: ScanOptions): Promise<void> {
  const days = indexDayPrefixes(at.prefix, filter.since, filter.until);
  const progress: ScanProgress = { read: 0, days: 0, dayCount: days.length };
  const take = (value: UploadIndexRecord | SkipKind, key: string) => {
    progress.read++;
    if (typeof value === 'string') options.skipped.add(value, key);
    else if (passes(value, filter)) options.onRecord(value);
  };
  for (const day of days) {
    const compacted = await options.compacted?.(day);
    // A compacted day's file, then the loose objects of bundles it does not hold (delivered after it was made).
    const inFile = new Set<string>();
    if (compacted) {
      for await (const row of compacted) {
        const value = classifyIndexObject(row);
        if (typeof value !== 'string') inFile.add(value.bundle_id);
        take(value, `${day} (compacted)`);
      }
    }
    const keys = async function* () {
      for await (const page of keyPages(store, at.bucket, day)) yield* page.filter((key) => key.endsWith('.json') && !inFile.has(key.slice(day.length, -'.json'.length)));
    };
    await forEachBounded(keys(), options.concurrency ?? INDEX_READS_AT_ONCE, async (key) => {
      let bytes: Uint8Array | null;
      try {
        bytes = await store.get(at.bucket, key, MAX_INDEX_BYTES);
      } catch (error) {
        if (error instanceof ObjectTooLargeError) return take('too large', key);
        throw error;
      }
      if (bytes) take(parseIndexObject(bytes), key);
      options.onProgress?.(progress);
    });
    progress.days++;
    options.onProgress?.(progress);
  }
}

import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { forEachBounded } from '../shared/bounded-pool';
import { readParquetRows, writeParquet } from './duckdb-node';
import { keyPages, MAX_INDEX_BYTES, ObjectTooLargeError, type FleetStore, type S3Location } from './fleet';
import { compactKey, compactPrefix, dayPath, looseDayOf, rowToIndexObject } from './index-compaction';
import { classifyIndexObject, INDEX_READS_AT_ONCE, type CompactedDay } from './index-scan';
import { SkipTally } from './skip-tally';

/** A compacted day is at most this large (about 1,000,000 records); a larger object is not one. */
const MAX_COMPACTED_BYTES = 512 * 1024 * 1024;

/** Lines written to the temporary file at once. */
const FLUSH_BYTES = 1 << 20;

export interface CompactResult {
  key: string;
  records: number;
  bytes: number;
  skipped: SkipTally;
}

/**
 * Reads a day's loose index objects (`<prefix>/index/<yyyy>/<mm>/<dd>/*.json`, a page of keys at a
 * time, 16 at once), writes the valid ones to a temporary newline-delimited file (memory holds about a
 * megabyte of lines), turns it into Parquet with DuckDB and writes it to `index-compact/<yyyy>/<mm>/<dd>.parquet`
 * in one PUT. Running it again makes the file again from the objects there are then (a late delivery
 * included); a reader meanwhile sees the old file or the new one.
 */
export async function compactDay(store: FleetStore, at: S3Location, day: string, onProgress?: (read: number) => void): Promise<CompactResult> {
  if (!store.put) throw new Error('this store cannot be written');
  const dayPrefix = `${at.prefix ? `${at.prefix}/` : ''}index/${dayPath(day)}/`;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'afr-compact-'));
  const skipped = new SkipTally();
  let records = 0;
  let read = 0;
  try {
    const ndjson = path.join(dir, 'day.ndjson');
    const file = await open(ndjson, 'w');
    let pending: string[] = [];
    let pendingBytes = 0;
    let writing: Promise<unknown> = Promise.resolve();
    const flush = () => {
      const text = pending.join('');
      pending = [];
      pendingBytes = 0;
      writing = writing.then(() => file.write(text));
      return writing;
    };
    try {
      const keys = async function* () {
        for await (const page of keyPages(store, at.bucket, dayPrefix)) yield* page.filter((key) => key.endsWith('.json'));
      };
      await forEachBounded(keys(), INDEX_READS_AT_ONCE, async (key) => {
        const value = await readIndexObject(store, at.bucket, key);
        onProgress?.(++read);
        if (value === null) return;
        if (typeof value === 'string') return skipped.add(value, key);
        const line = `${JSON.stringify(value)}\n`;
        pending.push(line);
        pendingBytes += line.length;
        records++;
        if (pendingBytes >= FLUSH_BYTES) await flush();
      });
      await flush();
    } finally {
      await file.close();
    }
    const parquet = path.join(dir, 'day.parquet');
    await writeParquet(ndjson, parquet);
    const bytes = await readFile(parquet);
    const key = compactKey(at.prefix, day);
    await store.put(at.bucket, key, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'application/vnd.apache.parquet');
    return { key, records, bytes: bytes.byteLength, skipped };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function readIndexObject(store: FleetStore, bucket: string, key: string) {
  let bytes: Uint8Array | null;
  try {
    bytes = await store.get(bucket, key, MAX_INDEX_BYTES);
  } catch (error) {
    if (error instanceof ObjectTooLargeError) return 'too large' as const;
    throw error;
  }
  if (!bytes) return null;
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return 'not JSON' as const;
  }
  return classifyIndexObject(value);
}

/**
 * The compacted days of a store, for `scanIndex`: lists `index-compact/` once, and for a day that has
 * a file, downloads it to a temporary file and reads its rows (the loose objects of that day are then
 * read only for bundles the file does not hold).
 */
export async function compactedDays(store: FleetStore, at: S3Location): Promise<CompactedDay> {
  const byDay = new Map<string, string>();
  for await (const page of keyPages(store, at.bucket, compactPrefix(at.prefix))) {
    for (const key of page) {
      const day = looseDayOf(key);
      if (day) byDay.set(day, key);
    }
  }
  return async (dayPrefix) => {
    const key = byDay.get(dayPrefix);
    if (!key) return null;
    return (async function* () {
      const bytes = await store.get(at.bucket, key, MAX_COMPACTED_BYTES);
      if (!bytes) return;
      const dir = await mkdtemp(path.join(os.tmpdir(), 'afr-compacted-'));
      try {
        const file = path.join(dir, 'day.parquet');
        const handle = await open(file, 'w');
        await handle.write(bytes);
        await handle.close();
        for await (const row of readParquetRows(file)) yield rowToIndexObject(row);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    })();
  };
}

import { createHash } from 'node:crypto';
import { UploadIndexRecordSchema, type UploadIndexRecord } from '../../schemas/upload';
import { candidateKeys, indexDayPrefixes, normalizePrefix } from '../bundle-format/bucket-layout';
import { formatBytes } from './format-bytes';
import { escapeControls } from './safe-text';

/** The bucket, as the fleet commands read it (`s3-node.ts` has the real one, on the AWS SDK). */
export interface FleetStore {
  /** Every key under `prefix` (all pages). */
  list(bucket: string, prefix: string): Promise<string[]>;
  /** The object's bytes, null when there is no such key; refuses objects over `maxBytes`. */
  get(bucket: string, key: string, maxBytes: number): Promise<Uint8Array | null>;
  /** The object as it arrives, read by the caller; null when there is no such key. */
  open(bucket: string, key: string): Promise<FleetObject | null>;
  /** The keys under `prefix` a page at a time, as the store lists them (a reader of 100,000 keys holds one page). */
  listPages?(bucket: string, prefix: string): AsyncIterable<string[]>;
  /** Writes an object whole (`afr index compact`); absent on a store that is only read. */
  put?(bucket: string, key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** A GET link to the object that works without credentials for `seconds` (`afr triage --presign`). */
  presign?(bucket: string, key: string, seconds: number): Promise<string>;
}

/** `get` refused an object larger than it was allowed to read. */
export class ObjectTooLargeError extends Error {
  override name = 'ObjectTooLargeError';
}

/** The keys under `prefix`, a page at a time when the store can, else its whole listing as one page. */
export async function* keyPages(store: FleetStore, bucket: string, prefix: string): AsyncIterable<string[]> {
  if (store.listPages) yield* store.listPages(bucket, prefix);
  else yield await store.list(bucket, prefix);
}

/** An object being downloaded: nothing is buffered beyond the chunk in hand. */
export interface FleetObject {
  /** The length the store declares (`Content-Length`), before any byte is read. */
  length: number | undefined;
  /** The bytes, in order; leaving the loop early ends the transfer. */
  chunks: AsyncIterable<Uint8Array>;
  /** Ends the transfer without reading (an object refused on its declared length). */
  cancel(): void;
}

export interface S3Location {
  bucket: string;
  prefix: string;
}

/** `s3://bucket/some/prefix` → `{ bucket, prefix }`; throws a usage message on anything else. */
export function parseS3Url(text: string): S3Location {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(text);
  if (!match) throw new Error(`"${text}" is not an s3://bucket/prefix location`);
  return { bucket: match[1]!, prefix: normalizePrefix(match[2] ?? '') };
}

/** `24h`, `7d`, `30m` before now, or an ISO date/time: the time from which `afr ls` lists. */
export function parseSince(text: string, now: number): number {
  const relative = /^(\d+)([mhd])$/.exec(text);
  if (relative) return now - Number(relative[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[relative[2] as 'm' | 'h' | 'd'];
  const at = Date.parse(text);
  if (Number.isNaN(at)) throw new Error(`--since wants 30m, 24h, 7d or an ISO date, not "${text}"`);
  return at;
}

export interface FleetFilter {
  since: number;
  until: number;
  reason?: string | undefined;
  agent?: string | undefined;
}

/** An index object is a few hundred bytes: anything much larger is not one. */
export const MAX_INDEX_BYTES = 64 * 1024;

/**
 * The index records of the bundles delivered in the window, newest first, filtered by reason and
 * agent; objects that are not index records are named in `unreadable`, not fatal.
 */
export async function listFleet(store: FleetStore, at: S3Location, filter: FleetFilter): Promise<{ records: UploadIndexRecord[]; unreadable: string[] }> {
  const records: UploadIndexRecord[] = [];
  const unreadable: string[] = [];
  for (const day of indexDayPrefixes(at.prefix, filter.since, filter.until)) {
    for (const key of await store.list(at.bucket, day)) {
      if (!key.endsWith('.json')) continue;
      let record: UploadIndexRecord;
      try {
        const bytes = await store.get(at.bucket, key, MAX_INDEX_BYTES);
        if (!bytes) continue;
        record = UploadIndexRecordSchema.parse(JSON.parse(new TextDecoder().decode(bytes)));
      } catch {
        unreadable.push(key);
        continue;
      }
      const ended = Date.parse(record.ended_at);
      if (ended < filter.since || ended > filter.until) continue;
      if (filter.reason !== undefined && record.reason !== filter.reason) continue;
      if (filter.agent !== undefined && record.agent !== filter.agent) continue;
      records.push(record);
    }
  }
  records.sort((a, b) => b.ended_at.localeCompare(a.ended_at) || b.bundle_id.localeCompare(a.bundle_id));
  return { records, unreadable };
}

/**
 * One line per bundle: when, why, which agent, the id, frames and size, where. An index object is
 * written by whoever can write to the bucket: each cell is escaped (a line break in `reason` is `\n`)
 * before the columns are measured, so no cell can forge a row or a line of ours.
 */
export function fleetTableLines(records: readonly UploadIndexRecord[]): string[] {
  if (records.length === 0) return ['no bundles delivered in that window'];
  const rows = records.map((r) =>
    [r.ended_at.replace(/\.\d+Z$/, 'Z'), r.reason, r.agent ?? '-', r.bundle_id, String(r.frame_count), formatBytes(r.size_bytes), r.url ?? '-'].map(escapeControls),
  );
  const head = ['ENDED', 'REASON', 'AGENT', 'BUNDLE', 'FRAMES', 'SIZE', 'URL'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  return [line(head), ...rows.map(line), `${records.length} bundle${records.length === 1 ? '' : 's'}`];
}

/** Where `pullBundle` writes the zip as it arrives: a temporary file beside its destination (`staged-file.ts`). */
export interface ZipSink {
  write(chunk: Uint8Array): Promise<void>;
}

/**
 * Downloads a bundle from the bucket into `sink`, trusting nothing the bucket says that this reader did
 * not compute: the index object must be at the key the layout gives for `bundleId` and name that id, its
 * `zip_key` must be the key the layout gives beside it (a forged index could point anywhere in the
 * bucket), the object's declared and actual length must be the index's `size_bytes` and at most
 * `maxBytes` (refused before reading, or as soon as a chunk passes it), and its SHA-256 the index's.
 * Streams: memory holds one chunk, whatever the object's size. Throws one-line messages; what was
 * written to `sink` is then to be thrown away. The caller still validates the zip and its manifest's id.
 */
export async function pullBundle(store: FleetStore, at: S3Location, bundleId: string, maxBytes: number, sink: ZipSink): Promise<UploadIndexRecord> {
  const s3 = (key: string) => `s3://${at.bucket}/${escapeControls(key)}`;
  for (const keys of candidateKeys(at.prefix, bundleId)) {
    const indexBytes = await store.get(at.bucket, keys.index, MAX_INDEX_BYTES);
    if (!indexBytes) continue;
    let index: UploadIndexRecord;
    try {
      index = UploadIndexRecordSchema.parse(JSON.parse(new TextDecoder().decode(indexBytes)));
    } catch {
      throw new Error(`${s3(keys.index)}: not an index record`);
    }
    if (index.bundle_id !== bundleId) throw new Error(`${s3(keys.index)}: names bundle "${escapeControls(index.bundle_id)}", not ${bundleId}`);
    if (index.zip_key !== keys.zip) throw new Error(`${s3(keys.index)}: its zip_key is ${s3(index.zip_key)}, not ${s3(keys.zip)} where bundle ${bundleId} belongs; refused`);
    if (index.size_bytes > maxBytes) throw new Error(`${s3(keys.zip)}: the index says ${index.size_bytes} bytes, more than the ${maxBytes} allowed (--max-bytes)`);
    const object = await store.open(at.bucket, keys.zip);
    if (!object) throw new Error(`${s3(keys.zip)}: the index names it but the bucket has no such object`);
    if (object.length !== undefined && object.length !== index.size_bytes) {
      object.cancel();
      throw new Error(`${s3(keys.zip)}: the bucket says ${object.length} bytes, the index ${index.size_bytes}`);
    }
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of object.chunks) {
      size += chunk.byteLength;
      // Counted as it comes: a store may send more than it declared.
      if (size > index.size_bytes) throw new Error(`${s3(keys.zip)}: sends more than the ${index.size_bytes} bytes its index says`);
      hash.update(chunk);
      await sink.write(chunk);
    }
    if (size !== index.size_bytes) throw new Error(`${s3(keys.zip)}: ended after ${size} bytes, the index says ${index.size_bytes}`);
    const sha = hash.digest('hex');
    if (sha !== index.sha256) throw new Error(`${s3(keys.zip)}: its SHA-256 is ${sha}, the index says ${index.sha256}`);
    return index;
  }
  throw new Error(`no bundle ${bundleId} under s3://${at.bucket}/${escapeControls(at.prefix)} (no index object for it)`);
}

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
const MAX_INDEX_BYTES = 64 * 1024;

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

/** A bundle in the bucket, fetched and checked against its index object's SHA-256. */
export async function pullBundle(store: FleetStore, at: S3Location, bundleId: string, maxBytes: number): Promise<{ zip: Uint8Array; index: UploadIndexRecord }> {
  for (const keys of candidateKeys(at.prefix, bundleId)) {
    const indexBytes = await store.get(at.bucket, keys.index, MAX_INDEX_BYTES);
    if (!indexBytes) continue;
    const index = UploadIndexRecordSchema.parse(JSON.parse(new TextDecoder().decode(indexBytes)));
    const zip = await store.get(at.bucket, index.zip_key, maxBytes);
    if (!zip) throw new Error(`s3://${at.bucket}/${index.zip_key}: the index names it but the bucket has no such object`);
    const sha = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', zip as Uint8Array<ArrayBuffer>)), (b) => b.toString(16).padStart(2, '0')).join('');
    if (sha !== index.sha256) throw new Error(`s3://${at.bucket}/${index.zip_key}: its SHA-256 is ${sha}, the index says ${index.sha256}`);
    return { zip, index };
  }
  throw new Error(`no bundle ${bundleId} under s3://${at.bucket}/${at.prefix} (no index object for it)`);
}

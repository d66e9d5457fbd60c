import type { OutboxEntry } from '../../schemas/upload';
import type { Checksums } from './checksums';

/** The outbox's durable entries (IndexedDB `outbox` in production), one per bundle id. */
export interface OutboxStore {
  get(bundleId: string): Promise<OutboxEntry | undefined>;
  put(entry: OutboxEntry): Promise<void>;
  list(): Promise<OutboxEntry[]>;
  delete(bundleId: string): Promise<void>;
}

/** One object to write: its key, what it is, and the checksums the store must confirm. */
export interface ObjectPut {
  key: string;
  bundleId: string;
  kind: 'zip' | 'index' | 'probe';
  body: Uint8Array;
  sums: Checksums;
  contentType: string;
}

/** Parts of a large object, written one at a time so that a retry resumes at the first part not confirmed. */
export interface MultipartTarget {
  create(key: string, contentType: string): Promise<string>;
  /** Resolves with the part's ETag once the store confirmed its bytes. */
  uploadPart(key: string, uploadId: string, partNumber: number, body: Uint8Array, sums: Checksums): Promise<string>;
  /** Resolves once the store assembled the object from `etags` (part 1 first) and confirmed it (`wholeMd5Hex`: the object's MD5). */
  complete(key: string, uploadId: string, etags: readonly string[], wholeMd5Hex: string): Promise<void>;
  abort(key: string, uploadId: string): Promise<void>;
}

/**
 * Where bundles go. `put` resolves only once the store confirmed the object (a matching checksum), and
 * rejects with an `UploadError` that says whether trying again can help.
 */
export interface ObjectTarget {
  put(object: ObjectPut): Promise<void>;
  /** Null where the target writes whole objects only (presigned URLs). */
  readonly multipart: MultipartTarget | null;
  /** Writes and deletes a small probe object: what "Test connection" runs. */
  probe(key: string): Promise<void>;
}

/** `fetch`, injected so that the targets run against a fake store in unit tests. */
export type Fetch = (input: Request | string, init?: RequestInit) => Promise<Response>;

import SparkMD5 from 'spark-md5';
import { bytesToBase64 } from '../shared/base64';

/** What a store is told and what it must echo back for an upload to count as confirmed. */
export interface Checksums {
  /** Lowercase hex: the index object's `sha256` and the value a presign service is given. */
  sha256Hex: string;
  /** Base64: `x-amz-checksum-sha256`. */
  sha256Base64: string;
  /** Lowercase hex: what S3 returns as the ETag of a single PUT (or of one part). */
  md5Hex: string;
  /** Base64: `Content-MD5`, which the store checks before it keeps anything. */
  md5Base64: string;
}

export async function checksumsOf(bytes: Uint8Array): Promise<Checksums> {
  const sha = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  const md5 = md5Bytes(bytes);
  return { sha256Hex: hex(sha), sha256Base64: bytesToBase64(sha), md5Hex: hex(md5), md5Base64: bytesToBase64(md5) };
}

/**
 * The ETag S3 gives a completed multipart upload: the MD5 of the parts' binary MD5s one after the
 * other, then `-` and the number of parts.
 */
export function multipartEtag(partMd5Hex: readonly string[]): string {
  const joined = new Uint8Array(partMd5Hex.length * 16);
  partMd5Hex.forEach((md5, i) => joined.set(fromHex(md5), i * 16));
  return `${hex(md5Bytes(joined))}-${partMd5Hex.length}`;
}

/** An ETag header as a bare lowercase value (quotes, the weak marker and case dropped). */
export function bareEtag(etag: string | null): string | null {
  if (etag === null) return null;
  return etag.trim().replace(/^W\//, '').replaceAll('"', '').toLowerCase();
}

function md5Bytes(bytes: Uint8Array): Uint8Array {
  const view = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer;
  return fromHex(SparkMD5.ArrayBuffer.hash(view as ArrayBuffer));
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function fromHex(text: string): Uint8Array {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}

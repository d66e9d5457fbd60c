import type { BodyOmitted } from '../../schemas/network';
import { maskBody } from './mask-body';
import type { ResponseBody } from './ports';
import type { MaskContext } from './withheld-value';

/** A response body as the log keeps it. */
export interface CapturedBody {
  /** Decoded size in bytes. */
  size: number;
  text?: string;
  omitted?: BodyOmitted;
  truncated?: boolean;
  sha256?: string;
}

function base64Bytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * A body read from the debugger, masked: text decoded (a base64 body must be valid UTF-8, else it is
 * left out as `not_utf8`), kept when it fits `maxChars` (cut text keeps its first part, masked), left
 * out past it or when binary; a body left out keeps its size and the SHA-256 of its bytes, which say
 * whether two runs got the same answer without saying what it was.
 */
export async function captureBody(read: ResponseBody, mimeType: string, maxChars: number, ctx: MaskContext): Promise<CapturedBody> {
  let text: string;
  let bytes: Uint8Array | null = null;
  if (read.base64Encoded) {
    bytes = base64Bytes(read.body);
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return { size: bytes.byteLength, omitted: 'not_utf8', sha256: await sha256(bytes) };
    }
  } else text = read.body;
  const masked = maskBody(text, mimeType, maxChars, ctx);
  const size = bytes?.byteLength ?? new TextEncoder().encode(text).byteLength;
  if (masked.omitted) return { size, omitted: masked.omitted, sha256: await sha256(bytes ?? new TextEncoder().encode(text)) };
  return { size, text: masked.text ?? '', ...(masked.truncated ? { truncated: true } : {}) };
}

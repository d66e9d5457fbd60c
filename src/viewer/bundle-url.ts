import { LOOPBACK_HOSTS } from '../../schemas/upload';
import { errorMessage } from '../shared/error-message';

/**
 * The URL of `viewer.html?bundle=<url>`: everything after `bundle=`, so that a presigned link pasted as
 * it is keeps its own query string (`…zip?X-Amz-Signature=…&X-Amz-Date=…`); an encoded one is decoded.
 * Null without a `bundle` parameter.
 */
export function bundleUrlOf(search: string): string | null {
  const match = /^\?(?:[^#]*?&)?bundle=(.*)$/s.exec(search);
  if (!match) return null;
  const raw = match[1]!;
  return /^https?%3A/i.test(raw) ? safeDecode(raw) : raw;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Bundles fetched from a link are held in memory whole: more than this is refused before it is read. */
export const MAX_FETCHED_BUNDLE_BYTES = 1024 * 1024 * 1024;

/**
 * The bytes of a bundle at an https URL (http for this machine only), read no further than `maxBytes`
 * whatever the server declares. Errors say what went wrong in words the page can show.
 */
export async function fetchBundle(url: string, fetchFn: (url: string) => Promise<Response>, maxBytes = MAX_FETCHED_BUNDLE_BYTES): Promise<Uint8Array> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`"${url}" is not a URL`);
  }
  const loopback = LOOPBACK_HOSTS.has(parsed.hostname);
  if (!(parsed.protocol === 'https:' || (parsed.protocol === 'http:' && loopback))) throw new Error(`only https links open here (http for localhost), not ${parsed.protocol}`);
  let response: Response;
  try {
    response = await fetchFn(parsed.toString());
  } catch (error) {
    throw new Error(`${parsed.host} did not answer (network, DNS, TLS, or the bucket's CORS rule): ${errorMessage(error)}`);
  }
  if (!response.ok) {
    const hint = response.status === 403 ? ' (a presigned link expires: ask for a new one)' : '';
    throw new Error(`${parsed.host} answered HTTP ${response.status}${hint}`);
  }
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) throw new Error(`the bundle is ${declared} bytes, more than the ${maxBytes} a viewer opens`);
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new Error(`the bundle is more than the ${maxBytes} bytes a viewer opens`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

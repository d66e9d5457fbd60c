import { errorMessage } from '../shared/error-message';
import { hostKind } from './link-host';

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
 * How the viewer asks for a linked bundle. No cookies or HTTP auth go with it (`omit`): a presigned link
 * carries its own signature, and the extension's host permission would otherwise send the user's
 * cookies for any site. Redirects are not followed (`manual`): the extension reads any origin without
 * CORS, so a link answered by a redirect to an intranet address would make it GET that address. An
 * extension page cannot follow the hops itself and check each one: with `manual` it gets an opaque
 * response (type `opaqueredirect`, status 0, no `Location` to read), and `redirect: 'error'` fails
 * like a network error would, so the user could not be told why. A redirect is refused by name instead.
 */
export const BUNDLE_FETCH_INIT: RequestInit = { credentials: 'omit', redirect: 'manual', referrerPolicy: 'no-referrer', cache: 'no-store' };

/**
 * The bytes of a bundle at an https URL (http or https to this machine too; a literal private or
 * link-local address never), read no further than `maxBytes` whatever the server declares: refused
 * before reading when its `Content-Length` is larger, and as soon as the bytes read pass it. The request
 * is `BUNDLE_FETCH_INIT`'s; a redirect is refused. Errors say what went wrong in words the page can show.
 */
export async function fetchBundle(url: string, fetchFn: (url: string, init: RequestInit) => Promise<Response>, maxBytes = MAX_FETCHED_BUNDLE_BYTES): Promise<Uint8Array> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`"${url}" is not a URL`);
  }
  const kind = hostKind(parsed.hostname);
  if (!(parsed.protocol === 'https:' || (parsed.protocol === 'http:' && kind === 'loopback'))) throw new Error(`only https links open here (http for localhost), not ${parsed.protocol}`);
  if (kind === 'private') throw new Error(`${parsed.hostname} is a private or local network address: a link to a bundle opens from the internet or this machine only`);
  let response: Response;
  try {
    response = await fetchFn(parsed.toString(), BUNDLE_FETCH_INIT);
  } catch (error) {
    throw new Error(`${parsed.host} did not answer (network, DNS, TLS, or the bucket's CORS rule): ${errorMessage(error)}`);
  }
  // `opaqueredirect` in a browser; the 3xx itself from a fetch that hands it over; `redirected` from one that followed anyway.
  if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400) || response.redirected) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`${parsed.host} answered with a redirect, which the viewer does not follow: open the link it redirects to (a presigned link to the bucket itself)`);
  }
  if (!response.ok) {
    const hint = response.status === 403 ? ' (a presigned link expires: ask for a new one)' : '';
    throw new Error(`${parsed.host} answered HTTP ${response.status}${hint}`);
  }
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`the bundle is ${declared} bytes, more than the ${maxBytes} a viewer opens`);
  }
  if (!response.body) return new Uint8Array(0);
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

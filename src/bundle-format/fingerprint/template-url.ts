/*
 * A URL as a template of its kind of page: the host and the path with the parts that name one thing
 * (an order, a user, a session) replaced, the query and the fragment dropped. `/orders/8812/items` and
 * `/orders/9031/items?tab=2` are one kind of page: `shop.test/orders/{id}/items`.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NUMBER = /^\d+$/;
const HEX = /^(?=[0-9a-f]*\d)[0-9a-f]{8,}$/i;
const EMAIL = /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}(?:[T_ ]?[\d:.]*Z?)?$/i;
/** A token mixing letters and 2 digits or more, 6 characters and up: `ord_8f3k2q`, `A1B2C3` (not `step-2`). */
const MIXED_ID = /^(?=(?:.*\d){2})(?=.*[a-z])[a-z0-9_-]{6,}$/i;
/** A long opaque token (base64, base64url). */
const TOKEN = /^[A-Za-z0-9_-]{24,}={0,2}$/;
/** A content hash in a file name: `main.3f9a8b7c.js`, `app-5f2d91ab.css`. */
const FILE_HASH = /([.-])(?=[0-9a-f]*\d)[0-9a-f]{8,}(?=\.[a-z0-9]+$)/i;

/** The placeholder of a path segment that names one thing, or null for a segment of the page's kind. */
export function segmentPlaceholder(segment: string): string | null {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // A malformed escape is still a segment: judge it as written.
  }
  if (NUMBER.test(decoded)) return '{n}';
  if (UUID.test(decoded)) return '{uuid}';
  if (EMAIL.test(decoded)) return '{email}';
  if (DATE.test(decoded)) return '{date}';
  if (HEX.test(decoded)) return '{hex}';
  if (MIXED_ID.test(decoded) || TOKEN.test(decoded)) return '{id}';
  return null;
}

function templatePath(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => segmentPlaceholder(segment) ?? segment.replace(FILE_HASH, '$1{hash}'))
    .join('/');
}

/**
 * `host/path` with ids templated, the query and fragment dropped; null for no URL. A URL that does not
 * parse is templated as a path (its own words kept, ids replaced).
 * @example templateUrl('https://shop.test/orders/8812/items?tab=2') // 'shop.test/orders/{n}/items'
 */
export function templateUrl(url: string | null): string | null {
  if (url === null || url === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return templatePath(url.split(/[?#]/)[0]!);
  }
  if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return `${parsed.host}${templatePath(parsed.pathname)}`;
  // data:, blob:, about:, chrome-extension: … say only what they are: their body is one page's content.
  if (parsed.protocol === 'file:') return `file://${templatePath(parsed.pathname)}`;
  return `${parsed.protocol}${parsed.host ? `//${parsed.host}` : ''}`;
}

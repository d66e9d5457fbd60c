import type { TextMasker } from './mask-text';
import { createTextMaskCounts, type TextMaskCounts } from './redaction-counts';
import { isSensitiveParamKey } from './sensitive-words';

/** What a withheld query value (or a `data:`/`javascript:` payload) is replaced with. */
export const URL_REDACTED = 'REDACTED';

/** Longest URL kept; the messages carrying URLs allow 8 KiB. */
export const MAX_URL_CHARS = 8192;

const JWT = /^eyJ[\w-]+\.[\w-]+\.[\w-]*$/;

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** What the redaction of one URL works with. */
interface UrlRedaction {
  readonly masker: TextMasker;
  readonly counts: TextMaskCounts;
}

/** Masks secrets in a path or fragment (a JWT as a path segment), looking at its percent-decoded form too. */
function maskPath(path: string, { masker, counts }: UrlRedaction): string {
  const masked = masker.maskInto(path, counts);
  if (masked !== path || !path.includes('%')) return masked;
  const decoded = safeDecode(path);
  const maskedDecoded = masker.maskInto(decoded, counts);
  return maskedDecoded === decoded ? path : maskedDecoded;
}

function redactParam(param: string, r: UrlRedaction, depth: number): string {
  const eq = param.indexOf('=');
  if (eq < 0) return r.masker.maskInto(safeDecode(param), r.counts) === safeDecode(param) ? param : URL_REDACTED;
  const key = param.slice(0, eq);
  const raw = param.slice(eq + 1);
  if (!raw) return param;
  if (isSensitiveParamKey(safeDecode(key))) return `${key}=${URL_REDACTED}`;
  const value = safeDecode(raw);
  if (JWT.test(value)) return `${key}=${URL_REDACTED}`;
  // A URL carried in a parameter (`?redirect=https://…?token=…`) is redacted in its turn. An absolute
  // one first, keeping what it may keep: its own `token=…` would have the masker withhold it whole.
  const nested = depth < 3 && /^[a-z][a-z\d+.-]*:|[?#]/i.test(value);
  const redactNested = () => {
    const inner = redactUrlAt(value, r, depth + 1);
    return inner === value ? null : `${key}=${encodeURIComponent(inner)}`;
  };
  const absolute = nested && value.includes('://') ? redactNested() : null;
  if (absolute) return absolute;
  // Any key may carry a secret (`?q=ghp_…`): the value is withheld whole when the masker finds anything in it.
  if (r.masker.maskInto(value, r.counts) !== value) return `${key}=${URL_REDACTED}`;
  return (nested && !value.includes('://') && redactNested()) || param;
}

function redactParams(query: string, r: UrlRedaction, depth: number): string {
  return query
    .split('&')
    .map((p) => redactParam(p, r, depth))
    .join('&');
}

/** A fragment is either a route (`#/orders/12?tab=2`), parameters (`#access_token=…`) or plain text. */
function redactFragment(fragment: string, r: UrlRedaction, depth: number): string {
  const q = fragment.indexOf('?');
  if (q >= 0) return maskPath(fragment.slice(0, q), r) + '?' + redactParams(fragment.slice(q + 1), r, depth);
  if (/^[^/]*=/.test(fragment)) return redactParams(fragment, r, depth);
  return maskPath(fragment, r);
}

function redactUrlAt(url: string, r: UrlRedaction, depth: number): string {
  const scheme = /^\s*([a-z][a-z\d+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'javascript') return `javascript:${URL_REDACTED}`;
  if (scheme === 'data') {
    const comma = url.indexOf(',');
    return `${(comma < 0 ? url : url.slice(0, comma)).slice(0, 100)},${URL_REDACTED}`;
  }
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt < 0 ? url : url.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  // `scheme://user:password@host` → `scheme://host`
  const base = (queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt)).replace(
    /^([a-z][a-z\d+.-]*:\/\/)[^/?#]*@/i,
    '$1',
  );
  let out = maskPath(base, r);
  if (queryAt >= 0) out += '?' + redactParams(beforeHash.slice(queryAt + 1), r, depth);
  if (hashAt >= 0) out += '#' + redactFragment(url.slice(hashAt + 1), r, depth);
  return out;
}

/**
 * A URL safe to store: userinfo removed, values of credential-like query or fragment parameters
 * (`token`, `password`, `email`, `code`, `key`, `session`, `sig`…) and values that look like personal
 * data or a credential replaced by `REDACTED`, secrets in the path masked (`/[credential]` for a JWT
 * segment), all with `masker`'s detectors and custom patterns. Relative URLs work too.
 * @example redactUrl('https://u:p@shop.test/cb?code=abc&page=2', masker) // 'https://shop.test/cb?code=REDACTED&page=2'
 */
export function redactUrl(url: string, masker: TextMasker, counts: TextMaskCounts = createTextMaskCounts()): string {
  if (!url) return url;
  // Redact the whole URL before cutting it, so the cut cannot leave part of a secret unrecognised.
  const out = redactUrlAt(url, { masker, counts }, 0);
  return out.length > MAX_URL_CHARS ? out.slice(0, MAX_URL_CHARS) : out;
}

const URL_IN_TEXT = /\b[a-z][a-z\d+.-]*:\/\/[^\s"'<>()]+/gi;

/**
 * Runs `redactUrl` over every absolute URL inside free text (error messages, stack traces), keeping
 * a stack frame's trailing `:line:column`.
 */
export function redactUrlsInText(text: string, masker: TextMasker, counts: TextMaskCounts = createTextMaskCounts()): string {
  return text.replace(URL_IN_TEXT, (match) => {
    const position = /(?::\d+){1,2}$/.exec(match)?.[0] ?? '';
    return redactUrl(match.slice(0, match.length - position.length), masker, counts) + position;
  });
}

import { maskTextInto } from './mask-text';
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

/** Masks personal data in a path or fragment, looking at its percent-decoded form too. */
function maskPath(path: string, counts: TextMaskCounts): string {
  const masked = maskTextInto(path, counts);
  if (masked !== path || !path.includes('%')) return masked;
  const decoded = safeDecode(path);
  const maskedDecoded = maskTextInto(decoded, counts);
  return maskedDecoded === decoded ? path : maskedDecoded;
}

function redactParam(param: string, counts: TextMaskCounts, depth: number): string {
  const eq = param.indexOf('=');
  if (eq < 0) return maskTextInto(safeDecode(param), counts) === safeDecode(param) ? param : URL_REDACTED;
  const key = param.slice(0, eq);
  const raw = param.slice(eq + 1);
  if (!raw) return param;
  if (isSensitiveParamKey(safeDecode(key))) return `${key}=${URL_REDACTED}`;
  const value = safeDecode(raw);
  if (JWT.test(value) || maskTextInto(value, counts) !== value) return `${key}=${URL_REDACTED}`;
  // A URL carried in a parameter (`?redirect=https://…?token=…`) is redacted in its turn.
  if (depth < 3 && /^[a-z][a-z\d+.-]*:|[?#]/i.test(value)) {
    const inner = redactUrlAt(value, counts, depth + 1);
    if (inner !== value) return `${key}=${encodeURIComponent(inner)}`;
  }
  return param;
}

function redactParams(query: string, counts: TextMaskCounts, depth: number): string {
  return query
    .split('&')
    .map((p) => redactParam(p, counts, depth))
    .join('&');
}

/** A fragment is either a route (`#/orders/12?tab=2`), parameters (`#access_token=…`) or plain text. */
function redactFragment(fragment: string, counts: TextMaskCounts, depth: number): string {
  const q = fragment.indexOf('?');
  if (q >= 0) return maskPath(fragment.slice(0, q), counts) + '?' + redactParams(fragment.slice(q + 1), counts, depth);
  if (/^[^/]*=/.test(fragment)) return redactParams(fragment, counts, depth);
  return maskPath(fragment, counts);
}

function redactUrlAt(url: string, counts: TextMaskCounts, depth: number): string {
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
  let out = maskPath(base, counts);
  if (queryAt >= 0) out += '?' + redactParams(beforeHash.slice(queryAt + 1), counts, depth);
  if (hashAt >= 0) out += '#' + redactFragment(url.slice(hashAt + 1), counts, depth);
  return out;
}

/**
 * A URL safe to store: userinfo removed, values of credential-like query or fragment parameters
 * (`token`, `password`, `email`, `code`, `key`, `session`, `sig`…) and values that look like personal
 * data or a JWT replaced by `REDACTED`, personal data in the path masked. Relative URLs work too.
 * @example redactUrl('https://u:p@shop.test/cb?code=abc&page=2') // 'https://shop.test/cb?code=REDACTED&page=2'
 */
export function redactUrl(url: string, counts: TextMaskCounts = createTextMaskCounts()): string {
  if (!url) return url;
  // Redact the whole URL before cutting it, so the cut cannot leave part of a secret unrecognised.
  const out = redactUrlAt(url, counts, 0);
  return out.length > MAX_URL_CHARS ? out.slice(0, MAX_URL_CHARS) : out;
}

const URL_IN_TEXT = /\b[a-z][a-z\d+.-]*:\/\/[^\s"'<>()]+/gi;

/**
 * Runs `redactUrl` over every absolute URL inside free text (error messages, stack traces), keeping
 * a stack frame's trailing `:line:column`.
 */
export function redactUrlsInText(text: string, counts: TextMaskCounts = createTextMaskCounts()): string {
  return text.replace(URL_IN_TEXT, (match) => {
    const position = /(?::\d+){1,2}$/.exec(match)?.[0] ?? '';
    return redactUrl(match.slice(0, match.length - position.length), counts) + position;
  });
}

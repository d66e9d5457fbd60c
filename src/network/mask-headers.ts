import { redactUrl } from '../redact/redact-url';
import { isSensitiveParamKey } from '../redact/sensitive-words';
import { withhold, type MaskContext } from './withheld-value';

/** A header as HAR writes it. */
export interface NameValue {
  name: string;
  value: string;
}

/** A cookie as HAR writes it: the value always withheld, the attributes kept. */
export interface HarCookie {
  name: string;
  value: string;
  path?: string;
  domain?: string;
  expires?: string;
  httpOnly?: boolean;
  secure?: boolean;
}

/** Longest header value kept (after masking); a 1 MiB header is cut here and counted. */
export const MAX_HEADER_CHARS = 8192;
/** Headers kept per request or response; the rest are counted. */
export const MAX_HEADERS = 100;
const MAX_HEADER_NAME_CHARS = 256;
const MAX_COOKIES = 100;

/** Headers whose value is a credential whatever it looks like. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-auth-token']);
/** Standard headers whose names hold a sensitive word but whose values are none (header names, `true`, `?0`). */
const PLAIN_HEADERS = new Set([
  'access-control-allow-credentials',
  'access-control-allow-headers',
  'access-control-expose-headers',
  'access-control-request-headers',
  'sec-ch-ua-mobile',
]);
/** Headers holding a URL, whose query may carry a token (`Referer: …?code=…`). */
const URL_HEADERS = new Set(['referer', 'location', 'content-location', 'origin']);

/** Whether the value of header `name` is withheld because of its name: the credential headers, and any name with a sensitive word (`X-CSRF-Token`, `X-Session-Id`). */
export function isSecretHeader(name: string): boolean {
  const lower = name.toLowerCase();
  if (SECRET_HEADERS.has(lower)) return true;
  return !PLAIN_HEADERS.has(lower) && isSensitiveParamKey(name);
}

/** The masked headers of one request or response, the cookies they carry, and how many were cut. */
export interface MaskedHeaders {
  headers: NameValue[];
  cookies: HarCookie[];
  truncated: number;
}

/**
 * Masks CDP headers (`{ name: value }`, repeated headers joined by newlines as Chrome sends them):
 * credential headers keep only their scheme (`Bearer [redacted 32+]`), cookies their names and
 * attributes, URLs lose their query secrets (`redactUrl`), every other value goes through the masker.
 * Values are cut to `MAX_HEADER_CHARS` after masking, and at most `MAX_HEADERS` headers are kept.
 */
export function maskHeaders(raw: unknown, ctx: MaskContext): MaskedHeaders {
  const out: MaskedHeaders = { headers: [], cookies: [], truncated: 0 };
  if (typeof raw !== 'object' || raw === null) return out;
  for (const [rawName, rawValue] of Object.entries(raw as Record<string, unknown>)) {
    if (out.headers.length >= MAX_HEADERS) {
      out.truncated++;
      continue;
    }
    const name = rawName.length > MAX_HEADER_NAME_CHARS ? rawName.slice(0, MAX_HEADER_NAME_CHARS) : rawName;
    const values = String(rawValue ?? '').split('\n');
    for (const value of values) {
      const lower = name.toLowerCase();
      let masked: string;
      if (lower === 'cookie') masked = maskCookieHeader(value, ctx, out.cookies);
      else if (lower === 'set-cookie') masked = maskSetCookie(value, ctx, out.cookies);
      else if (isSecretHeader(name)) masked = withholdCredential(value, ctx);
      else if (URL_HEADERS.has(lower)) masked = redactUrl(value, ctx.masker, ctx.spans);
      else masked = ctx.masker.maskAndCap(value, MAX_HEADER_CHARS, ctx.spans);
      if (masked.length > MAX_HEADER_CHARS) masked = masked.slice(0, MAX_HEADER_CHARS);
      if (value.length > MAX_HEADER_CHARS) out.truncated++;
      out.headers.push({ name, value: masked });
    }
  }
  return out;
}

/** `Bearer abc…` → `Bearer [redacted 32+]`: the scheme says how the request was authorised. */
function withholdCredential(value: string, ctx: MaskContext): string {
  const scheme = /^([A-Za-z][\w-]{0,30}) +(\S.*)$/.exec(value);
  return scheme ? `${scheme[1]} ${withhold(ctx, scheme[2]!)}` : withhold(ctx, value);
}

/** `a=1; b=2` → `a=[redacted <8]; b=[redacted <8]`, each cookie listed. */
function maskCookieHeader(value: string, ctx: MaskContext, cookies: HarCookie[]): string {
  return value
    .split(';')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = (eq < 0 ? pair : pair.slice(0, eq)).trim();
      const masked = withhold(ctx, eq < 0 ? '' : pair.slice(eq + 1).trim());
      if (cookies.length < MAX_COOKIES) cookies.push({ name: capName(name), value: masked });
      return `${name}=${masked}`;
    })
    .join('; ');
}

/** `sid=…; Path=/; HttpOnly` → `sid=[redacted 32+]; Path=/; HttpOnly`: the attributes are kept (their values masked as text). */
function maskSetCookie(value: string, ctx: MaskContext, cookies: HarCookie[]): string {
  const [pair = '', ...attributes] = value.split(';');
  const eq = pair.indexOf('=');
  const name = (eq < 0 ? '' : pair.slice(0, eq)).trim();
  const masked = withhold(ctx, (eq < 0 ? pair : pair.slice(eq + 1)).trim());
  const cookie: HarCookie = { name: capName(name), value: masked };
  const kept = attributes.map((attribute) => {
    const text = ctx.masker.maskAndCap(attribute.trim(), 512, ctx.spans);
    const [key = '', ...rest] = text.split('=');
    const v = rest.join('=');
    const k = key.toLowerCase();
    if (k === 'path') cookie.path = v;
    else if (k === 'domain') cookie.domain = v;
    else if (k === 'expires') cookie.expires = v;
    else if (k === 'httponly') cookie.httpOnly = true;
    else if (k === 'secure') cookie.secure = true;
    return text;
  });
  if (cookies.length < MAX_COOKIES) cookies.push(cookie);
  return [`${name}=${masked}`, ...kept].join('; ');
}

const capName = (name: string) => (name.length > MAX_HEADER_NAME_CHARS ? name.slice(0, MAX_HEADER_NAME_CHARS) : name);

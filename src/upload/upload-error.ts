import { errorMessage } from '../shared/error-message';

/**
 * Why an upload failed, as the outbox acts on it: `transient` (network, 5xx, throttling, a checksum the
 * store did not confirm) is retried with backoff; `auth` (the store refused the credentials) and
 * `config` (no such bucket, a request the store will never accept) stop that bundle until the delivery
 * settings change, so a wrong secret does not become a retry storm.
 */
export type UploadErrorKind = 'transient' | 'auth' | 'config';

export class UploadError extends Error {
  override readonly name = 'UploadError';
  constructor(
    readonly kind: UploadErrorKind,
    message: string,
    readonly status: number | null = null,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

const AUTH_CODES = new Set([
  'AccessDenied',
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'ExpiredToken',
  'InvalidToken',
  'TokenRefreshRequired',
  'RequestTimeTooSkewed',
  'AuthorizationHeaderMalformed',
]);
/** 4xx codes that say the bytes were damaged on the way: sending them again is the cure. */
const RETRY_CODES = new Set(['BadDigest', 'InvalidDigest', 'XAmzContentSHA256Mismatch', 'RequestTimeout', 'SlowDown', 'NoSuchUpload']);

/** An S3 error response (`<Error><Code>…</Code><Message>…</Message></Error>`) as an `UploadError`. */
export function storeError(what: string, status: number, body: string): UploadError {
  const code = xmlText(body, 'Code');
  const detail = xmlText(body, 'Message');
  const said = [code, detail].filter(Boolean).join(': ');
  const message = `${what}: HTTP ${status}${said ? ` (${said})` : ''}`;
  if (status >= 500 || status === 429 || status === 408 || (code !== null && RETRY_CODES.has(code))) return new UploadError('transient', message, status, code);
  if (status === 401 || status === 403 || (code !== null && AUTH_CODES.has(code))) return new UploadError('auth', message, status, code);
  return new UploadError('config', message, status, code);
}

/** A request that got no answer: DNS, TLS, a refused connection, CORS, or the network gone. */
export function networkError(what: string, error: unknown): UploadError {
  return new UploadError('transient', `${what}: no answer from the store (DNS, TLS, connection or CORS): ${errorMessage(error)}`);
}

/** The text of the first `<tag>` of an XML document, entities decoded; null when there is none. */
export function xmlText(xml: string, tag: string): string | null {
  const match = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml);
  if (!match) return null;
  return match[1]!
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&#34;', '"')
    .replaceAll('&amp;', '&');
}

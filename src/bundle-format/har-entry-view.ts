import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';
import type { TolerantHarEntry } from './tolerant-har';

/*
 * One request of `network.har` as every reader shows it (the viewer's Network panel, `afr requests`,
 * `afr request`, the MCP tools): a row of facts, and its bodies as text, JSON pretty-printed. Pure, so
 * the standalone viewer (no zod) and the command line share it.
 */

/**
 * `text` cut to `max` code points (never splitting a surrogate pair), the rest counted: `…(+N chars)`.
 * @example cutText('abcdef', 3) // 'abc…(+3 chars)'
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join('')}…(+${chars.length - max} chars)` : text;
}

/** A request in one row: what a waterfall or a list shows of it. */
export interface RequestRow {
  /** 1-based, in the HAR's order (by start): what `afr request <zip> N` takes. */
  index: number;
  method: string;
  url: string;
  /** HTTP status; 0 when the request failed with no response (`error` says why). */
  status: number;
  status_text: string;
  /** CDP's resource type (`Fetch`, `Document`…), else the response's MIME type. */
  type: string;
  /** Bytes of the response body (uncompressed), null when unknown. */
  size: number | null;
  /** Start, ms since the epoch. */
  started_ts: number;
  /** Duration in ms. */
  time_ms: number;
  error: string | null;
  /** An HTTP error (4xx, 5xx) or a request that never got a response. */
  failed: boolean;
}

/** `startedDateTime` in ms since the epoch (NaN for a HAR that spells it wrong: such a row sorts nowhere). */
export const entryStart = (entry: TolerantHarEntry): number => Date.parse(entry.startedDateTime);

/** The row of entry `i` (0-based) of the HAR. */
export function requestRow(entry: TolerantHarEntry, i: number): RequestRow {
  const { request, response } = entry;
  const size = response.content.size >= 0 ? response.content.size : (response.bodySize ?? -1) >= 0 ? response.bodySize! : null;
  return {
    index: i + 1,
    method: request.method,
    url: request.url,
    status: response.status,
    status_text: response.statusText,
    type: entry._resourceType ?? response.content.mimeType,
    size,
    started_ts: entryStart(entry),
    time_ms: Math.max(0, entry.time),
    error: entry._error ?? null,
    failed: response.status === 0 || response.status >= 400 || entry._error !== undefined,
  };
}

/** A body as a reader shows it. */
export interface BodyView {
  /** `json`: parsed and pretty-printed; `text`: as it is; `base64`: bytes the HAR carries encoded; `none`: no text (see `note`). */
  kind: 'json' | 'text' | 'base64' | 'none';
  text: string;
  mime_type: string;
  /** Why there is no text or only part of it, and the SHA-256 of the bytes when the recorder read them. */
  note: string | null;
  /** Characters of `text` left out past the reader's bound. */
  cut_chars: number;
}

/** Most characters of a body one read shows (a body is kept up to 256 KiB by default; a model's context is smaller). */
export const MAX_BODY_CHARS = 20_000;

const OMITTED_WORDS: Record<string, string> = {
  not_kept: 'not kept (the network.bodies setting leaves this type out)',
  binary: 'binary, not kept as text',
  not_utf8: 'not valid UTF-8, not kept as text',
  too_large: 'larger than the per-body cap, not kept',
  too_deep: 'JSON nested too deep to mask, not kept',
  bundle_cap: 'past the bundle’s cap for bodies, not kept',
  unavailable: 'no longer held by Chrome when the bundle was made',
  busy: 'not read: the recorder was busy',
  pending: 'the response had not ended when the bundle was made',
  stream: 'a stream (WebSocket frames or server-sent events), never read',
};

/** Whether text in this MIME type (or shaped like it) should be read as JSON. */
const looksJson = (mimeType: string, text: string) => /json/i.test(mimeType) || /^\s*[[{]/.test(text);

/**
 * A body (`response.content` or `request.postData`) as text for a reader: JSON pretty-printed (two
 * spaces; masked values are strings like any other, so the masks show where they are), other text as
 * it is, cut to `max` characters. Nesting past the format's bound stays as it is rather than parsed.
 * @example bodyView({ mimeType: 'application/json', text: '{"error":"token_expired"}' }).text // '{\n  "error": "token_expired"\n}'
 */
export function bodyView(body: { mimeType: string; text?: string; encoding?: string; _omitted?: string; _truncated?: boolean; _sha256?: string }, max = MAX_BODY_CHARS): BodyView {
  const notes: string[] = [];
  if (body._omitted !== undefined) notes.push(OMITTED_WORDS[body._omitted] ?? `left out (${body._omitted})`);
  if (body._truncated) notes.push('cut by the recorder');
  if (body._sha256 !== undefined) notes.push(`SHA-256 ${body._sha256}`);
  const raw = body.text ?? '';
  let kind: BodyView['kind'] = raw === '' ? 'none' : body.encoding === 'base64' ? 'base64' : 'text';
  let text = raw;
  if (kind === 'text' && looksJson(body.mimeType, raw) && !nestsDeeperThan(raw, MAX_JSON_DEPTH)) {
    try {
      text = JSON.stringify(JSON.parse(raw), null, 2);
      kind = 'json';
    } catch {
      // Not JSON after all (a JSON type with an HTML error page, a cut body): shown as it is.
    }
  }
  const chars = Array.from(text);
  const cut = Math.max(0, chars.length - max);
  return { kind, text: cut > 0 ? chars.slice(0, max).join('') : text, mime_type: body.mimeType, note: notes.length > 0 ? notes.join('; ') : null, cut_chars: cut };
}

import { escapeControls } from '../shared/control-chars';

/*
 * Small spellings the text renderings share: times from the failure and unknown JSON cut to a bound
 * (page strings and the recorder's words are quoted by `shared/quote.ts`).
 */

/** Milliseconds from the failure as seconds with a sign: `-7.0s`, `+0.3s`, `0.0s`. */
export function relativeTime(ms: number): string {
  const seconds = (ms / 1000).toFixed(1);
  return ms > 0 ? `+${seconds}s` : ms < 0 ? `${seconds}s` : '0.0s';
}

/** Unknown JSON (a later recorder's field) as one line of JSON, cut to `max` characters with the rest counted. */
export function boundedJson(value: unknown, max = 400): string {
  const json = JSON.stringify(value) ?? 'null';
  return json.length > max ? `${json.slice(0, max)}…(+${json.length - max} chars)` : json;
}

/**
 * Unknown JSON on one line as it is (its strings stay in JSON's own quotes, so page text still reads as
 * data), cut to `max`; controls, bidi and format characters made visible as `quote` does.
 * @example plainJson({ role: 'button' }) // '{"role":"button"}'
 */
export function plainJson(value: unknown, max = 400): string {
  return escapeControls(boundedJson(value, max));
}

/** A value that may be unknown JSON, bounded for a `--json` answer: as it is when small, else its cut JSON text. */
export function boundedValue(value: unknown, max = 2000): unknown {
  const json = JSON.stringify(value);
  if (json === undefined || json.length <= max) return value;
  return { truncated: true, json: `${json.slice(0, max)}…`, chars: json.length };
}

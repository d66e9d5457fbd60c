import type { BodyOmitted } from '../../schemas/network';
import { nestsDeeperThan } from '../bundle-format/json-depth';
import { isSensitiveParamKey } from '../redact/sensitive-words';
import { bodyKind } from './body-kind';
import type { NameValue } from './mask-headers';
import { maskHtmlFields } from './mask-html';
import { MAX_JSON_BODY_DEPTH, isSecretJsonKey, maskJsonValue } from './mask-json';
import { withhold, type MaskContext } from './withheld-value';

/** A body as the log keeps it: masked text (and form fields), or why there is none. */
export interface MaskedBody {
  text?: string;
  params?: NameValue[];
  omitted?: BodyOmitted;
  truncated?: boolean;
}

/** `"name": "value"` pairs in text that is not valid JSON (a cut answer, a page's inline state). */
const KEYED_STRING = /"([^"\\\n]{1,64})"\s*:\s*"((?:[^"\\\n]|\\.){0,4096})"/g;

/** Values of secret keys in JSON-like text withheld, the rest left to the masker. */
function maskKeyedText(text: string, ctx: MaskContext): string {
  if (!text.includes('":')) return text;
  return text.replace(KEYED_STRING, (match, key: string, value: string) => (isSecretJsonKey(key) ? `"${key}":"${withhold(ctx, value)}"` : match));
}

const decode = (s: string) => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};

/** A form body field by field: secret names withheld, other values through the masker. */
function maskForm(text: string, ctx: MaskContext): MaskedBody {
  const params: NameValue[] = [];
  const pairs = text.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = decode(eq < 0 ? pair : pair.slice(0, eq));
    const raw = eq < 0 ? '' : decode(pair.slice(eq + 1));
    const value = isSensitiveParamKey(name) ? withhold(ctx, raw) : ctx.masker.maskInto(raw, ctx.spans);
    const maskedName = ctx.masker.maskInto(name, ctx.spans);
    params.push({ name: maskedName, value });
    return `${encodeURIComponent(maskedName)}=${encodeURIComponent(value)}`;
  });
  return { text: pairs.join('&'), params };
}

/**
 * Masks one body by its MIME type: JSON walked structurally (`maskJsonValue`), form posts per field,
 * text through the masker after the secret keys of any JSON-looking part are withheld (and, in HTML,
 * every field value of its markup: `mask-html.ts`). A body longer
 * than `cap` characters is cut when it is text (masked first, so no cut leaves a fragment of a secret)
 * and left out when it is JSON or a form (a cut would break the structure the masking reads); JSON
 * nested deeper than `MAX_JSON_BODY_DEPTH` is left out unparsed.
 */
export function maskBody(text: string, mimeType: string, cap: number, ctx: MaskContext): MaskedBody {
  const kind = bodyKind(mimeType);
  if (kind === 'binary' || kind === 'stream') return { omitted: 'binary' };
  if (kind === 'form') return text.length > cap ? { omitted: 'too_large' } : maskForm(text, ctx);
  if (kind === 'json' && text.length <= cap) {
    if (nestsDeeperThan(text, MAX_JSON_BODY_DEPTH)) return { omitted: 'too_deep' };
    try {
      return { text: JSON.stringify(maskJsonValue(JSON.parse(text), ctx)) };
    } catch {
      // Not JSON after all: masked as text below.
    }
  } else if (kind === 'json') return { omitted: 'too_large' };
  const type = mimeType.split(';')[0]!.trim().toLowerCase();
  const fieldsWithheld = type === 'text/html' || type === 'application/xhtml+xml' ? maskHtmlFields(text, ctx) : text;
  const masked = ctx.masker.maskAndCap(maskKeyedText(fieldsWithheld, ctx), cap, ctx.spans);
  return text.length > cap ? { text: masked, truncated: true } : { text: masked };
}

import { sensitiveWordKind } from '../redact/sensitive-words';
import { withheldNumber, withhold, type MaskContext } from './withheld-value';

/**
 * Deepest JSON body walked; a deeper one is left out (`too_deep`) rather than parsed, since every
 * walker recurses. API answers nest a dozen levels at most.
 */
export const MAX_JSON_BODY_DEPTH = 64;

/**
 * Whether a JSON key names a secret or personal value: `password`, `access_token`, `refresh_token`,
 * `id_token`, `secret`, `api_key`, `authorization`, `session`, `card`, `cvc`, `ssn`, `email`, `phone`,
 * `pin`, `otp`… (the form-field words, so `tokenType` counts and `spinner`, `shipping`, `keyboard` do not).
 */
export function isSecretJsonKey(key: string): boolean {
  return sensitiveWordKind(key) !== null;
}

/**
 * A parsed JSON value masked structurally: every value under a secret key (and everything beneath it)
 * withheld with its type and length class kept, every other string and each key through the masker,
 * numbers the masker would take for a card or a phone number withheld; booleans, null and the shape kept.
 * The caller bounds the depth (`MAX_JSON_BODY_DEPTH`) before parsing.
 */
export function maskJsonValue(value: unknown, ctx: MaskContext, secret = false): unknown {
  if (typeof value === 'string') return secret ? withhold(ctx, value) : ctx.masker.maskInto(value, ctx.spans);
  if (typeof value === 'number') {
    if (secret || (Number.isInteger(value) && Math.abs(value) >= 1e6 && ctx.masker.maskInto(String(value), ctx.spans) !== String(value))) {
      ctx.withheld++;
      return withheldNumber(value);
    }
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => maskJsonValue(item, ctx, secret));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[ctx.masker.maskInto(key, ctx.spans)] = maskJsonValue(item, ctx, secret || isSecretJsonKey(key));
    }
    return out;
  }
  return value;
}

import { isSensitiveParamKey } from '../redact/sensitive-words';
import { withhold, type MaskContext } from './withheld-value';

/*
 * A page's HTML as the server sent it holds what its fields start with: a saved password prefilled in
 * `<input type=password value=…>`, a CSRF token in a hidden input, a draft in a `<textarea>`. The DOM
 * snapshot knows which field is which and withholds them; the HTML body is text, and a password that
 * matches no pattern would pass the masker. So every field value in markup is withheld, whatever the
 * field (an input's `value`, a textarea's text, a secret-named `<meta>`'s `content`); the markup around
 * them, and buttons' and choices' values (labels, not input), stay readable.
 */

/** Inputs whose `value` is a label or a fixed choice, not what a person or a page put in. */
const LABEL_TYPES = new Set(['submit', 'button', 'reset', 'image', 'checkbox', 'radio']);

const INPUT_TAG = /<input\b(?:[^>"']|"[^"]*"|'[^']*')*>/gi;
const VALUE_ATTR = /(\svalue\s*=\s*)("[^"]*"|'[^']*'|[^\s"'=<>`]+)/i;
const TYPE_ATTR = /\stype\s*=\s*["']?([a-z-]+)/i;
const TEXTAREA = /(<textarea\b(?:[^>"']|"[^"]*"|'[^']*')*>)([\s\S]*?)(<\/textarea\s*>)/gi;
const META_TAG = /<meta\b(?:[^>"']|"[^"]*"|'[^']*')*>/gi;
const NAME_ATTR = /\s(?:name|property)\s*=\s*["']?([^"'\s>]+)/i;
const CONTENT_ATTR = /(\scontent\s*=\s*)("[^"]*"|'[^']*'|[^\s"'=<>`]+)/i;

const unquote = (value: string) => (value.startsWith('"') || value.startsWith("'") ? value.slice(1, -1) : value);

/** `html` with every field value in its markup withheld. */
export function maskHtmlFields(html: string, ctx: MaskContext): string {
  return html
    .replace(INPUT_TAG, (tag) => {
      const type = TYPE_ATTR.exec(tag)?.[1]?.toLowerCase() ?? 'text';
      if (LABEL_TYPES.has(type)) return tag;
      return tag.replace(VALUE_ATTR, (_m, before: string, value: string) => `${before}"${withhold(ctx, unquote(value))}"`);
    })
    .replace(TEXTAREA, (_m, open: string, text: string, close: string) => `${open}${withhold(ctx, text)}${close}`)
    .replace(META_TAG, (tag) => {
      const name = NAME_ATTR.exec(tag)?.[1];
      if (name === undefined || !(isSensitiveParamKey(name) || /csrf|xsrf|token|nonce/i.test(name))) return tag;
      return tag.replace(CONTENT_ATTR, (_m, before: string, value: string) => `${before}"${withhold(ctx, unquote(value))}"`);
    });
}

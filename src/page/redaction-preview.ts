import type { RedactionPreview } from '../../schemas/api';
import { buildSelector } from '../snapshot/css-selector';
import { classifySensitiveField } from '../redact/classify-field';
import { withheldBySelector, type CompiledRedactionRules } from '../redact/custom-rules';
import { hasFieldValue } from '../redact/field-value';
import { createTextMasker } from '../redact/mask-text';

const MAX_MATCHES = 200;
const SAMPLE_CHARS = 80;

/** Every element of the document, open shadow roots included, in document order. */
function* elementsOf(root: Document | ShadowRoot): Generator<Element> {
  for (const el of Array.from(root.querySelectorAll('*'))) {
    yield el;
    if (el.shadowRoot) yield* elementsOf(el.shadowRoot);
  }
}

function ownText(el: Element): string {
  let text = '';
  for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 3) text += c.nodeValue ?? '';
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * What redaction would mask on this page with `rules` in force (plus the built-in rules): each field
 * withheld and why, each element a selector withholds, each text a custom pattern masks. Samples are
 * masked text only. The rules in force on the page are not touched: the preview has a masker of its own.
 */
export function previewRedaction(doc: Document, rules: CompiledRedactionRules, problems: string[] = []): RedactionPreview {
  const masker = createTextMasker(rules);
  const matches: RedactionPreview['matches'] = [];
  let total = 0;
  const add = (el: Element, reason: string, sample: string) => {
    total++;
    if (matches.length < MAX_MATCHES) matches.push({ tag: el.localName, selector: buildSelector(el), reason, sample: sample.slice(0, SAMPLE_CHARS) });
  };
  for (const el of elementsOf(doc)) {
    if (hasFieldValue(el)) {
      const kind = classifySensitiveField(el, rules);
      if (kind === 'custom') add(el, withheldBySelector(el, rules) ? 'selector' : 'field_name', '(value withheld)');
      else if (kind) add(el, `built_in:${kind}`, '(value withheld)');
      continue;
    }
    if (withheldBySelector(el, rules)) {
      // Only the outermost withheld element: its subtree goes with it.
      if (!el.parentElement || !withheldBySelector(el.parentElement, rules)) add(el, 'selector', '(content withheld)');
      continue;
    }
    const text = ownText(el);
    if (!text) continue;
    const masked = masker.mask(text);
    if (masked.counts.custom > 0) add(el, 'text_pattern', masked.text);
  }
  return { matches, total, problems };
}

import type { TextMaskCounts } from '../redact/redaction-counts';
import type { TextMasker } from '../redact/mask-text';
import { collapseWhitespace, readableText } from './readable-text';
import { roleOf } from './implicit-role';
import { fieldLabels } from '../redact/field-labels';

/** Longest accessible name kept. */
export const MAX_NAME_CHARS = 200;

/** Roles whose name comes from their content (WAI-ARIA "name from: contents"). */
export const NAME_FROM_CONTENT: ReadonlySet<string> = new Set([
  'button',
  'cell',
  'checkbox',
  'columnheader',
  'heading',
  'link',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'radio',
  'row',
  'rowheader',
  'switch',
  'tab',
  'tooltip',
  'treeitem',
]);

const LABELABLE = new Set(['input', 'textarea', 'select', 'meter', 'progress', 'output', 'button']);

function labelText(el: Element): string {
  return fieldLabels(el)
    .map((l) => readableText(l))
    .join(' ');
}

function rawName(el: Element, role: string | undefined): string {
  const labelledBy = el.getAttribute('aria-labelledby');
  if (labelledBy) {
    const root = el.getRootNode() as Document | ShadowRoot;
    const text = labelledBy
      .split(/\s+/)
      .map((id) => {
        const ref = id ? root.getElementById?.(id) : null;
        return ref ? readableText(ref) : '';
      })
      .join(' ');
    if (text.trim()) return text;
  }
  const ariaLabel = el.getAttribute('aria-label');
  if (ariaLabel?.trim()) return ariaLabel;
  const tag = el.localName;
  if (tag === 'input') {
    const type = (el.getAttribute('type') ?? '').toLowerCase();
    // The value of a button-like input is its visible caption, not user data.
    if (type === 'submit' || type === 'button' || type === 'reset') return el.getAttribute('value') ?? type;
    if (type === 'image') return el.getAttribute('alt') ?? '';
  }
  if (LABELABLE.has(tag)) {
    const text = labelText(el);
    if (text.trim()) return text;
  }
  if (tag === 'img' || tag === 'area') return el.getAttribute('alt') ?? el.getAttribute('title') ?? '';
  if (role && NAME_FROM_CONTENT.has(role)) {
    const text = readableText(el);
    if (text.trim()) return text;
  }
  return el.getAttribute('title') ?? el.getAttribute('placeholder') ?? '';
}

/**
 * The element's accessible name, approximately as assistive technology computes it (aria-labelledby,
 * aria-label, labels, alt, button and link text, title, placeholder). Masked with `masker` and
 * capped; undefined when empty.
 */
export function accessibleName(el: Element, masker: TextMasker, counts: TextMaskCounts, role: string | undefined = roleOf(el)): string | undefined {
  const raw = rawName(el, role);
  if (!raw) return undefined;
  const name = masker.maskAndCap(collapseWhitespace(raw), MAX_NAME_CHARS, counts);
  return name || undefined;
}

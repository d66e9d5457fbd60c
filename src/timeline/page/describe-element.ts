import type { TimelineFields } from '../../../schemas/timeline';
import { withheldBySelector } from '../../redact/custom-rules';
import { hasFieldValue, readFieldValue } from '../../redact/field-value';
import type { TextMasker } from '../../redact/mask-text';
import type { RedactionTally } from '../../redact/redaction-counts';
import { accessibleName } from '../../snapshot/accessible-name';
import { roleOf } from '../../snapshot/implicit-role';
import { collapseWhitespace } from '../../snapshot/readable-text';
import { pickSafeAttributes } from '../../snapshot/safe-attributes';
import { LEAVES, NAME_ATTRIBUTES, SKIPPED, SNAPSHOT_DEFAULTS, childrenOf } from '../../snapshot/take-snapshot';

/** What describing an element needs: the context's masker, the running tally, the frame reader. */
export interface DescribeContext {
  readonly masker: TextMasker;
  readonly counts: RedactionTally;
  readonly frameDocument: (iframe: Element) => Document | null;
  readonly maxTextChars: number;
}

/** An element's own fields, and what lies under it: child elements, or a frame's document. */
export interface DescribedElement {
  fields: TimelineFields;
  /** Child elements to record, in order (skipped tags already left out); empty for leaves. */
  children: Element[];
  /** The document of a same-origin iframe (its body is the node's only child). */
  frameDoc?: Document;
  /** The open shadow root walked for the children, to be observed too. */
  shadowRoot?: ShadowRoot;
}

/** True for elements a snapshot never records (scripts, styles, `<head>` and its content). */
export function isSkipped(el: Element): boolean {
  return SKIPPED.has(el.localName);
}

/**
 * One element as `takeSnapshot` records it, field for field and with the same redaction (custom
 * rules, sensitive fields withheld, text masked), but without its rect and without recursing.
 */
export function describeElement(el: Element, id: number, ctx: DescribeContext): DescribedElement {
  const tag = el.localName;
  const fields: TimelineFields = { id, tag };
  const role = roleOf(el);
  if (role) fields.role = role;
  if (withheldBySelector(el, ctx.masker.rules) && !hasFieldValue(el)) {
    ctx.counts.fields.custom++;
    fields.value_redacted = true;
    fields.redaction_kind = 'custom';
    return { fields, children: [] };
  }
  const attributes = pickSafeAttributes(el, ctx.counts.text, ctx.masker);
  if (attributes) fields.attributes = attributes;
  if (role || NAME_ATTRIBUTES.some((a) => el.hasAttribute(a))) {
    const name = accessibleName(el, ctx.masker, ctx.counts.text, role);
    if (name) fields.name = name;
  }
  const field = readFieldValue(el, ctx.counts, ctx.masker);
  if (field) {
    fields.value = field.value;
    if (field.value_redacted) fields.value_redacted = true;
    if (field.redaction_kind) fields.redaction_kind = field.redaction_kind;
  }
  if (tag === 'input' && /^(checkbox|radio)$/i.test(el.getAttribute('type') ?? '')) {
    fields.checked = Boolean((el as HTMLInputElement).checked);
  }
  if (tag === 'iframe' || tag === 'frame') {
    const doc = ctx.frameDocument(el);
    fields.frame = doc ? 'same-origin' : 'cross-origin';
    return doc?.body ? { fields, children: [], frameDoc: doc } : { fields, children: [] };
  }
  if (LEAVES.has(tag) || (tag === 'select' && fields.value_redacted)) return { fields, children: [] };
  const { elements, rawText } = childrenOf(el, fields as Parameters<typeof childrenOf>[1]);
  const trimmed = rawText.trim();
  if (trimmed) {
    const text = ctx.masker.maskAndCap(collapseWhitespace(trimmed), ctx.maxTextChars, ctx.counts.text);
    if (text) fields.text = text;
  }
  const out: DescribedElement = { fields, children: elements.filter((c) => !isSkipped(c)) };
  if (el.shadowRoot) out.shadowRoot = el.shadowRoot;
  return out;
}

export const DEFAULT_MAX_TEXT_CHARS = SNAPSHOT_DEFAULTS.maxTextChars;

/** Own fields compared as stored: same JSON, same node. */
export function sameFields(a: TimelineFields, b: TimelineFields): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

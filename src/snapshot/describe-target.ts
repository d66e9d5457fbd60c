import type { StepTarget } from '../../schemas/steps';
import type { TextMasker } from '../redact/mask-text';
import { createTextMaskCounts, type TextMaskCounts } from '../redact/redaction-counts';
import { accessibleName } from './accessible-name';
import { buildSelector } from './css-selector';
import { roleOf } from './implicit-role';
import { withheldBySelector } from '../redact/custom-rules';

const MAX_SELECTOR_CHARS = 300;

/** What a person would call "the thing clicked": the nearest control around the clicked node. */
const INTERACTIVE =
  'a[href],button,input,select,textarea,label,summary,option,[role="button"],[role="link"],[role="menuitem"],' +
  '[role="tab"],[role="checkbox"],[role="radio"],[role="switch"],[role="option"],[role="treeitem"],[contenteditable=""],[contenteditable="true"]';

/** The nearest interactive ancestor of `el` (itself included), or `el` when there is none. */
export function interactiveTarget(el: Element): Element {
  try {
    return el.closest(INTERACTIVE) ?? el;
  } catch {
    return el;
  }
}

/** A step's description of an element: tag, role, masked accessible name and masked selector. */
export function describeTarget(el: Element, masker: TextMasker, counts: TextMaskCounts = createTextMaskCounts()): StepTarget {
  const role = roleOf(el);
  // An element a custom rule withholds is named by tag and selector only.
  const name = withheldBySelector(el, masker.rules) ? '' : accessibleName(el, masker, counts, role);
  const target: StepTarget = {
    tag: el.localName,
    selector: masker.maskAndCap(buildSelector(el), MAX_SELECTOR_CHARS, counts),
  };
  if (role) target.role = role;
  if (name) target.name = name;
  return target;
}

import type { ReproTarget } from './ports';

/**
 * One way to find a step's element, as a person would write it. A step gets several, best first, in
 * Playwright codegen's order (test id, role + name, placeholder, label, alt, text, title, CSS): the
 * script writes the first, the runner tries them in turn.
 */
export type LocatorChoice =
  | { kind: 'testid'; value: string }
  | { kind: 'role'; role: AriaRole; name: string }
  | { kind: 'label'; value: string }
  | { kind: 'text'; value: string }
  | { kind: 'css'; value: string };

/** The ARIA roles Playwright's `getByRole` takes; another role string is never written as one. */
export const ARIA_ROLES = [
  'alert', 'alertdialog', 'application', 'article', 'banner', 'blockquote', 'button', 'caption', 'cell', 'checkbox', 'code',
  'columnheader', 'combobox', 'complementary', 'contentinfo', 'definition', 'deletion', 'dialog', 'directory', 'document',
  'emphasis', 'feed', 'figure', 'form', 'generic', 'grid', 'gridcell', 'group', 'heading', 'img', 'insertion', 'link', 'list',
  'listbox', 'listitem', 'log', 'main', 'marquee', 'math', 'meter', 'menu', 'menubar', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'navigation', 'none', 'note', 'option', 'paragraph', 'presentation', 'progressbar', 'radio', 'radiogroup',
  'region', 'row', 'rowgroup', 'rowheader', 'scrollbar', 'search', 'searchbox', 'separator', 'slider', 'spinbutton', 'status',
  'strong', 'subscript', 'superscript', 'switch', 'tab', 'table', 'tablist', 'tabpanel', 'term', 'textbox', 'time', 'timer',
  'toolbar', 'tooltip', 'tree', 'treegrid', 'treeitem',
] as const;
export type AriaRole = (typeof ARIA_ROLES)[number];

const isAriaRole = (role: string | undefined): role is AriaRole => (ARIA_ROLES as readonly string[]).includes(role ?? '');

/** The recorder's masks (`[email]`, `[redacted 8+]`…): a name holding one names nothing on the live page. */
const MASK = /\[(?:email|phone|card|ssn|credential|redacted)(?: [^\]]*)?\]/;

/** Whether page text came out of the recorder masked (a locator or value built on it would not match). */
export const isMasked = (text: string): boolean => MASK.test(text);

/** A test id the selector ends with (`[data-testid="x"]`, the attribute Playwright's `getByTestId` reads). */
function testIdOf(selector: string): string | undefined {
  const match = /\[data-testid="((?:[^"\\]|\\.)*)"\]$/.exec(selector);
  return match ? match[1]!.replace(/\\(.)/g, '$1') : undefined;
}

/** Form fields a label names when the recorder knew no role for them. */
const LABELLED_TAGS = new Set(['input', 'select', 'textarea']);

/**
 * The ways to find a step's target, best first; empty when nothing usable is left (a masked name and
 * selector). Names are matched exactly, as codegen does.
 * @example locatorChoices({ tag: 'button', role: 'button', name: 'Checkout', selector: '#checkout' })
 * // [{ kind: 'role', role: 'button', name: 'Checkout' }, { kind: 'css', value: '#checkout' }]
 */
export function locatorChoices(target: ReproTarget): LocatorChoice[] {
  const choices: LocatorChoice[] = [];
  const selector = target.selector.trim();
  const usableSelector = selector !== '' && !isMasked(selector);
  const testId = usableSelector ? testIdOf(selector) : undefined;
  if (testId) choices.push({ kind: 'testid', value: testId });
  const name = target.name?.trim();
  if (name && !isMasked(name)) {
    if (isAriaRole(target.role)) choices.push({ kind: 'role', role: target.role, name });
    else if (LABELLED_TAGS.has(target.tag)) choices.push({ kind: 'label', value: name });
    else choices.push({ kind: 'text', value: name });
  }
  if (usableSelector) choices.push({ kind: 'css', value: selector });
  return choices;
}

/** Whether a step is found by what a person sees (not only by CSS): the figure `afr repro` reports. */
export const isSemantic = (choices: readonly LocatorChoice[]): boolean => choices.length > 0 && choices[0]!.kind !== 'css';

/** The choice in words, for comments and verdicts: `button "Checkout"`, `css #checkout`. */
export function describeLocator(choice: LocatorChoice): string {
  switch (choice.kind) {
    case 'testid':
      return `test id ${JSON.stringify(choice.value)}`;
    case 'role':
      return `${choice.role} ${JSON.stringify(choice.name)}`;
    case 'label':
      return `field labelled ${JSON.stringify(choice.value)}`;
    case 'text':
      return `text ${JSON.stringify(choice.value)}`;
    case 'css':
      return `css ${JSON.stringify(choice.value)}`;
  }
}

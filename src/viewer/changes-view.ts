import type { DiffNode, StepChanges, TimelineDiff } from '../../schemas/timeline';
import { append, h } from './dom';

/** `h1 heading "Internal Server Error"`: how a diff names a node. */
function nodeName(node: { tag: string; role?: string; label?: string }): string {
  const role = node.role && node.role !== node.tag ? ` ${node.role}` : '';
  return `${node.tag}${role}${node.label ? ` "${node.label}"` : ''}`;
}

/** An added or removed subtree: its name, its size, the notable elements inside it. */
function describeSubtree(node: DiffNode): string {
  const size = node.size > 1 ? ` (${node.size} elements)` : '';
  const notable = node.notable?.length ? `, with ${node.notable.map(nodeName).join(', ')}` : '';
  return `${nodeName(node)}${size}${notable}`;
}

const quoted = (value: string | boolean | null): string => (value === null ? 'none' : typeof value === 'boolean' ? (value ? 'checked' : 'unchecked') : JSON.stringify(value));

/** One titled list of the diff; nothing when the list is empty. */
function section(title: string, testid: string, lines: string[]): HTMLElement | null {
  if (lines.length === 0) return null;
  return h(
    'div',
    { className: 'afr-change-group', data: { testid } },
    h('h3', null, `${title} (${lines.length})`),
    h('ul', { className: 'afr-diag-list' }, ...lines.map((line) => h('li', null, line))),
  );
}

/** The detail of a diff, group by group: what was added, removed, and what changed in place. */
function renderDetail(diff: TimelineDiff): (HTMLElement | null)[] {
  return [
    diff.new_document ? h('p', { className: 'afr-change-note' }, 'The next page is another document: everything on this one was replaced.') : null,
    diff.url ? h('p', { className: 'afr-change-note afr-url' }, `URL ${diff.url.from} \u2192 ${diff.url.to}`) : null,
    section('Added', 'changes-added', diff.added.map(describeSubtree)),
    section('Removed', 'changes-removed', diff.removed.map(describeSubtree)),
    section('Text', 'changes-text', diff.text.map((t) => `${nodeName(t)}: ${quoted(t.from)} \u2192 ${quoted(t.to)}`)),
    section('Attributes', 'changes-attributes', diff.attributes.map((a) => `${nodeName(a)} ${a.attribute}: ${quoted(a.from)} \u2192 ${quoted(a.to)}`)),
    // A withheld value is never shown, only that it changed.
    section('Values', 'changes-values', diff.values.map((v) => (v.redacted ? `${nodeName(v)}: value changed (redacted)` : `${nodeName(v)}: ${quoted(v.from)} \u2192 ${quoted(v.to)}`))),
  ];
}

/** Whether the diff lists nothing at all. */
const isEmpty = (diff: TimelineDiff) =>
  !diff.new_document && !diff.url && [diff.added, diff.removed, diff.text, diff.attributes, diff.values].every((list) => list.length === 0);

/**
 * What a step changed, as `steps.json` carries it: the plain-words description first, then the
 * detail (added, removed, text, attributes, values). Page text is shown as text only.
 */
export function renderChanges(changes: StepChanges | undefined, noneReason: string): HTMLElement {
  const element = h('div', { className: 'afr-changes', data: { testid: 'changes' } });
  if (!changes) {
    append(element, h('p', { className: 'afr-empty' }, noneReason));
    return element;
  }
  append(
    element,
    h('p', { className: 'afr-change-summary', data: { testid: 'changes-summary' } }, changes.description),
    h('p', { className: 'afr-count' }, `compared with ${changes.to}`),
    ...renderDetail(changes.diff),
    isEmpty(changes.diff) ? h('p', { className: 'afr-empty' }, 'Nothing on the page changed.') : null,
  );
  return element;
}

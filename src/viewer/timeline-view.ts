import type { Step } from '../../schemas/steps';
import type { BundleData } from '../bundle-format/bundle-data';
import { frameOfStep as frameOf, stepLabel } from '../bundle-format/story';
import { failureTime } from '../bundle-format/views';
import { h } from './dom';
import { describeTarget, formatClock, formatOffset } from './format';

export interface TimelineView {
  element: HTMLElement;
  /** Marks the entries shown by frame `index` as current and scrolls the first of them into view. */
  setCurrentFrame(index: number): void;
  /** Marks step `index` (of `steps.json`) as the selected one and scrolls it into view; -1: none. */
  setSelectedStep(index: number): void;
}

/** The value column of a step: the typed text, a "redacted" badge, or nothing. */
function renderValue(step: Step): HTMLElement | null {
  if (step.value_redacted) return h('span', { className: 'afr-badge afr-redacted', title: 'the value was withheld by redaction' }, 'redacted');
  if (step.value === null) return null;
  return h('span', { className: 'afr-step-value' }, step.value);
}

function renderStep(step: Step, index: number, failureTs: number, requests: number, onSelect: () => void): HTMLElement {
  const target = describeTarget(step.target);
  return h(
    'li',
    { className: `afr-step afr-kind-${step.kind}${step.outcome === 'fail' ? ' afr-fail' : ''}`, data: { seq: String(step.seq), step: stepLabel(index).slice(1), kind: step.kind } },
    h(
      'button',
      {
        className: 'afr-step-button',
        attrs: { type: 'button' },
        title: `${formatClock(step.ts)} UTC: show this step's page and its frame`,
        on: { click: onSelect },
      },
      h('span', { className: 'afr-step-number', data: { testid: 'step-number' } }, stepLabel(index)),
      h('span', { className: 'afr-step-time' }, formatOffset(step.ts - failureTs)),
      h('span', { className: `afr-badge afr-source-${step.source}` }, step.source),
      h('span', { className: 'afr-step-kind' }, step.kind),
      h('span', { className: 'afr-step-action' }, step.action),
      target === '' ? null : h('span', { className: 'afr-step-target' }, target),
      renderValue(step),
      step.outcome === null ? null : h('span', { className: `afr-badge afr-outcome-${step.outcome}` }, step.outcome),
      step.label === null ? null : h('span', { className: 'afr-step-label' }, step.label),
      requests === 0 ? null : h('span', { className: 'afr-badge afr-step-requests', title: 'requests this step caused: select it to see them in the Network panel' }, `\u2192 ${requests} request${requests === 1 ? '' : 's'}`),
      ...renderDetails(step),
    ),
  );
}

/** The agent's goal and reasoning, an assertion's expected/actual, a signal's request: one line each. */
function renderDetails(step: Step): HTMLElement[] {
  const d = step.detail ?? {};
  const request = [d.method, d.status === undefined ? undefined : String(d.status), d.request_url, d.resource_type && `(${d.resource_type})`, d.error_text].filter(Boolean).join(' ');
  const lines: [string, string | undefined][] = [
    ['goal', step.goal],
    ['reasoning', step.reasoning],
    ['expected', d.expected],
    ['actual', d.actual],
    ['request', request || undefined],
    ['message', d.message === step.label ? undefined : d.message],
    ['task', d.task],
  ];
  return lines.flatMap(([label, text]) =>
    text === undefined || text === '' ? [] : [h('span', { className: 'afr-step-detail' }, h('span', { className: 'afr-field-label' }, label), text)],
  );
}

/**
 * The timeline: every step of `steps.json` in order (signals stand out), the bundle's warnings above
 * it, each numbered as every reader numbers it (`#17`), with how many requests it caused
 * (`requestsOfStep`, from the Network panel). Clicking a step selects it (the viewer shows its page, its
 * frame and marks its requests).
 */
export function renderTimeline(data: BundleData, onSelectStep: (index: number) => void, requestsOfStep: readonly (readonly number[])[] = []): TimelineView {
  const { steps, manifest } = data;
  const failureTs = failureTime(data);
  const warningTexts = data.diagnostics?.warnings ?? [];
  const frameOfStep = steps.steps.map((s) => frameOf(manifest.frames, s));
  const items = steps.steps.map((step, i) => renderStep(step, i, failureTs, requestsOfStep[i]?.length ?? 0, () => onSelectStep(i)));
  const list = h('ol', { className: 'afr-steps', data: { testid: 'timeline' } }, ...items);
  const warnings = warningTexts.length === 0 ? null : h('ul', { className: 'afr-warnings', data: { testid: 'warnings' } }, ...warningTexts.map((w) => h('li', null, w)));
  const element = h(
    'section',
    { className: 'afr-panel afr-timeline' },
    h('h2', null, `Timeline `, h('span', { className: 'afr-count' }, `${steps.steps.length} steps`)),
    warnings,
    steps.steps.length === 0 ? h('p', { className: 'afr-empty' }, 'No steps were recorded in the buffer window.') : list,
  );

  // Scroll only the list, never the page: scrollIntoView would move the whole document.
  const scrollTo = (item: HTMLElement) => {
    if (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, item.offsetTop - list.clientHeight / 3);
    }
  };
  let current: HTMLElement[] = [];
  let selected: HTMLElement | null = null;
  return {
    element,
    setCurrentFrame(index) {
      current.forEach((item) => item.classList.remove('afr-current'));
      current = items.filter((_, i) => frameOfStep[i] === index);
      current.forEach((item) => item.classList.add('afr-current'));
      items.forEach((item, i) => item.classList.toggle('afr-past', frameOfStep[i]! < index));
      const first = current[0];
      if (first) scrollTo(first);
    },
    setSelectedStep(index) {
      selected?.classList.remove('afr-selected');
      selected?.querySelector('button')?.removeAttribute('aria-current');
      selected = items[index] ?? null;
      if (!selected) return;
      selected.classList.add('afr-selected');
      selected.querySelector('button')!.setAttribute('aria-current', 'step');
      scrollTo(selected);
    },
  };
}

import type { BundleData } from '../bundle-format/bundle-data';
import { failureTime } from '../bundle-format/views';
import { h } from './dom';
import { formatDateTime } from './format';

const field = (label: string, value: string | null | undefined, className = '') =>
  value === null || value === undefined || value === ''
    ? null
    : h('div', { className: `afr-field ${className}`.trim() }, h('span', { className: 'afr-field-label' }, label), h('span', { className: 'afr-field-value' }, value));

/** The failure in a few lines: reason, label, message, URL, time, tab, bundle id; the agent's run if declared. */
export function renderHeader(data: BundleData): HTMLElement {
  const { manifest } = data;
  const failure = data.diagnostics?.failure ?? null;
  const run = manifest.run;
  return h(
    'header',
    { className: `afr-header afr-status-${manifest.status}`, data: { testid: 'header' } },
    h(
      'div',
      { className: 'afr-title' },
      h('span', { className: 'afr-reason', data: { testid: 'failure-reason' } }, manifest.failure_reason),
      manifest.failure_label === null ? null : h('span', { className: 'afr-label', data: { testid: 'failure-label' } }, manifest.failure_label),
      manifest.status === 'success' ? h('span', { className: 'afr-badge afr-outcome-ok' }, 'run passed') : null,
      h('span', { className: 'afr-bundle-id', title: 'bundle id' }, manifest.bundle_id),
    ),
    manifest.failure_message === null ? null : h('div', { className: 'afr-message', data: { testid: 'failure-message' } }, manifest.failure_message),
    h(
      'div',
      { className: 'afr-fields' },
      field('url', manifest.url_at_failure, 'afr-url'),
      field('time', formatDateTime(failureTime(data))),
      field('tab', manifest.tab_id === null ? null : String(manifest.tab_id)),
      field('signal', failure ? `${failure.kind} via ${failure.origin}` : null),
      field('status', failure?.http_status == null ? null : `HTTP ${failure.http_status}`),
      field('agent', [run.agent, run.agent_version].filter(Boolean).join(' ') || null),
      field('task', run.task),
    ),
  );
}

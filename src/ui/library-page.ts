import type { BundleSummary } from '../../schemas/api';
import { downloadButton, viewerLink } from './bundle-actions';
import { bundleReasons, filterBundles, NO_FILTER, totalBytes, type BundleFilter } from './bundle-filter';
import { h } from './dom';
import { errorMessage } from '../shared/error-message';
import { formatBytes, formatLocalDateTime, plural } from './format';
import type { UiPorts } from './ports';

/** The summary line: everything stored, and what the filter shows of it. */
export function describeLibrary(all: readonly BundleSummary[], shown: readonly BundleSummary[]): string {
  const stored = `${plural(all.length, 'bundle')} stored, ${formatBytes(totalBytes(all))} in all`;
  return shown.length === all.length ? `${stored}.` : `${stored}; ${shown.length} shown (${formatBytes(totalBytes(shown))}).`;
}

/**
 * The bundle library: every stored bundle, filtered by reason, URL substring and creation date;
 * download, open in the viewer, delete (after a confirmation).
 */
export async function mountLibrary(root: HTMLElement, ports: UiPorts): Promise<void> {
  let bundles: BundleSummary[] = [];
  const filter: BundleFilter = { ...NO_FILTER };

  const reason = h('select', { attrs: { 'aria-label': 'Reason' }, data: { testid: 'filter-reason' } });
  const url = h('input', { attrs: { type: 'search', placeholder: 'URL contains\u2026', 'aria-label': 'URL contains' }, data: { testid: 'filter-url' } });
  const from = h('input', { attrs: { type: 'date', 'aria-label': 'Created from' }, data: { testid: 'filter-from' } });
  const to = h('input', { attrs: { type: 'date', 'aria-label': 'Created until' }, data: { testid: 'filter-to' } });
  const summary = h('p', { data: { testid: 'library-summary' } });
  const limits = h('p', { className: 'muted small', data: { testid: 'library-limits' } });
  const message = h('p', { className: 'message', attrs: { role: 'status' }, data: { testid: 'library-message' } });
  const body = h('tbody');
  const empty = h('p', { className: 'muted', data: { testid: 'library-empty' } });

  const notify = (text: string, isError = false) => {
    message.textContent = text;
    message.classList.toggle('error', isError);
  };

  const render = () => {
    const reasons = bundleReasons(bundles);
    if (filter.reason && !reasons.includes(filter.reason)) reasons.push(filter.reason);
    reason.replaceChildren(h('option', { attrs: { value: '' } }, 'All reasons'), ...reasons.map((r) => h('option', { attrs: { value: r } }, r)));
    reason.value = filter.reason ?? '';
    const shown = filterBundles(bundles, filter);
    summary.textContent = describeLibrary(bundles, shown);
    body.replaceChildren(...shown.map(row));
    empty.textContent = shown.length ? '' : bundles.length ? 'No bundle matches the filter.' : 'No bundles stored yet.';
  };

  const row = (b: BundleSummary) => {
    const remove = h('button', { attrs: { type: 'button' }, className: 'danger', data: { testid: 'delete' } }, 'Delete');
    remove.addEventListener('click', async () => {
      if (!ports.confirm(`Delete bundle ${b.id} (${b.reason})? This cannot be undone.`)) return;
      remove.disabled = true;
      try {
        const existed = await ports.call('deleteBundle', b.id);
        notify(existed ? `Deleted ${b.id}.` : `${b.id} was already gone.`);
        bundles = bundles.filter((x) => x.id !== b.id);
        render();
      } catch (error) {
        notify(`Cannot delete ${b.id}: ${errorMessage(error)}`, true);
        remove.disabled = false;
      }
    });
    return h(
      'tr',
      { data: { bundleId: b.id, reason: b.reason } },
      h('td', { className: 'nowrap', title: b.createdAt }, formatLocalDateTime(b.createdAt)),
      h('td', null, h('strong', null, b.reason)),
      h('td', null, b.label ?? ''),
      h('td', { className: 'url', title: b.url ?? '' }, b.url ?? ''),
      h('td', { className: 'nowrap num' }, formatBytes(b.sizeBytes)),
      h('td', null, h('div', { className: 'row' }, downloadButton(ports, b, notify), viewerLink(ports, b.id, 'Open'), remove)),
    );
  };

  const reload = async () => {
    try {
      bundles = await ports.call('listBundles');
      render();
    } catch (error) {
      notify(`Cannot list the bundles: ${errorMessage(error)}`, true);
    }
    try {
      const s = await ports.call('getSettings');
      limits.textContent = `The extension keeps at most ${plural(s.maxStoredBundles, 'bundle')} and ${formatBytes(s.maxStoredBundleBytes)}, each for ${s.bundleRetentionDays} days; older ones are deleted first.`;
    } catch {
      limits.textContent = '';
    }
  };

  const onFilter = () => {
    filter.reason = reason.value || null;
    filter.urlContains = url.value;
    filter.from = from.value;
    filter.to = to.value;
    render();
  };
  for (const input of [reason, url, from, to]) input.addEventListener('input', onFilter);
  reason.addEventListener('change', onFilter);
  const clear = h('button', { attrs: { type: 'button' }, className: 'secondary', data: { testid: 'filter-clear' } }, 'Clear filter');
  clear.addEventListener('click', () => {
    reason.value = url.value = from.value = to.value = '';
    onFilter();
  });
  const refresh = h('button', { attrs: { type: 'button' }, className: 'secondary', data: { testid: 'refresh' } }, 'Refresh');
  refresh.addEventListener('click', () => void reload());

  root.replaceChildren(
    h('header', { className: 'page-header' }, h('h1', null, 'Agent Flight Recorder: bundle library'), h('nav', null, h('a', { attrs: { href: ports.pageUrl('options.html') } }, 'Settings'))),
    h(
      'main',
      { className: 'page-main' },
      summary,
      limits,
      h('div', { className: 'row filters' }, reason, url, h('label', null, 'from ', from), h('label', null, 'until ', to), clear, refresh),
      message,
      h(
        'table',
        { className: 'list', data: { testid: 'bundles' } },
        h('thead', null, h('tr', null, ...['Created', 'Reason', 'Label', 'URL', 'Size', ''].map((t) => h('th', null, t)))),
        body,
      ),
      empty,
    ),
  );
  await reload();
}

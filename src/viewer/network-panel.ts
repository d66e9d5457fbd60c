import type { HarEntry } from '../../schemas/network';
import type { BundleData } from '../bundle-format/bundle-data';
import { NETWORK_HAR_FILE } from '../bundle-format/file-names';
import { bodyView, cutText } from '../bundle-format/har-entry-view';
import { stepLabel } from '../bundle-format/story';
import { failureTime } from '../bundle-format/views';
import { append, h, svg, type Child } from './dom';
import { formatBytes, formatOffset } from './format';
import { waterfallOf, type Waterfall, type WaterfallRow } from './waterfall';

export interface NetworkPanel {
  element: HTMLElement;
  /** The waterfall, for the timeline's links (null: the bundle has no `network.har`). */
  waterfall: Waterfall | null;
  /** Marks the requests step `index` caused and says which they are; -1: none. */
  showStep(index: number): void;
  /** Shows request `row` (index into `waterfall.rows`) with its headers and bodies. */
  selectRequest(row: number): void;
}

/**
 * The stand-ins the recorder writes where it masked a value (`redact/mask-text.ts`'s `[email]`,
 * `[card]`…, `network/withheld-value.ts`'s `[redacted <8]`, `[redacted 32+]`): marked so they read as masks.
 */
const MASK = /\[(?:redacted(?: <8| \d+\+)?|email|phone|card|ssn|credential)\]/g;

/** Text with its masks wrapped in a marked span; every piece is text (`h` never parses markup). */
function withMasks(text: string): Child[] {
  const parts: Child[] = [];
  let at = 0;
  for (const match of text.matchAll(MASK)) {
    parts.push(text.slice(at, match.index), h('span', { className: 'afr-mask', title: 'masked by the recorder' }, match[0]));
    at = match.index + match[0].length;
  }
  parts.push(text.slice(at));
  return parts;
}

/** Longest header, cookie or query value shown (a header may be 8 KiB; a page could send more). */
const MAX_VALUE_CHARS = 2_000;

function pairs(title: string, list: readonly { name: string; value: string }[] | undefined): HTMLElement | null {
  if (!list || list.length === 0) return null;
  return h(
    'div',
    { className: 'afr-diag-group' },
    h('h3', null, `${title} (${list.length})`),
    h('dl', null, ...list.flatMap((p) => [h('dt', null, cutText(p.name, 200)), h('dd', null, ...withMasks(cutText(p.value, MAX_VALUE_CHARS)))])),
  );
}

function body(title: string, content: Parameters<typeof bodyView>[0]): HTMLElement {
  const view = bodyView(content);
  const facts = [view.mime_type || 'no type', view.kind === 'none' ? null : view.kind, view.note, view.cut_chars > 0 ? `${view.cut_chars} more characters left out (afr request has the same bound)` : null];
  return h(
    'div',
    { className: 'afr-diag-group', data: { testid: 'request-body' } },
    h('h3', null, title),
    h('p', { className: 'afr-req-facts' }, facts.filter(Boolean).join(' \u00B7 ')),
    view.kind === 'none' ? null : h('pre', { className: 'afr-body' }, ...withMasks(view.text)),
  );
}

/** A request's row: status, method, URL, type, size, time, and its bar on the window's axis. */
function renderRow(row: WaterfallRow, failureAt: number, onSelect: () => void): HTMLElement {
  const bar = svg(
    'svg',
    { class: 'afr-req-bar', viewBox: '0 0 1000 10', preserveAspectRatio: 'none', 'aria-hidden': 'true' },
    svg('line', { x1: failureAt * 1000, x2: failureAt * 1000, y1: 0, y2: 10, class: 'afr-req-failure' }),
    svg('rect', { x: row.left * 1000, width: row.width * 1000, y: 2, height: 6, class: 'afr-req-span' }),
  );
  return h(
    'li',
    { className: `afr-request${row.failed ? ' afr-fail' : ''}`, data: { request: String(row.index) } },
    h(
      'button',
      { className: 'afr-request-button', attrs: { type: 'button' }, title: `${row.method} ${cutText(row.url, 500)}`, on: { click: onSelect } },
      h('span', { className: 'afr-req-index' }, `#${row.index}`),
      h('span', { className: 'afr-req-status' }, row.status === 0 ? 'failed' : String(row.status)),
      h('span', { className: 'afr-req-method' }, row.method),
      h('span', { className: 'afr-req-url' }, cutText(row.url, 300)),
      h('span', { className: 'afr-req-type' }, row.type),
      h('span', { className: 'afr-req-size' }, row.size === null ? '\u2014' : formatBytes(row.size)),
      h('span', { className: 'afr-req-time' }, `${Math.round(row.time_ms)} ms`),
      bar,
    ),
  );
}

/** One request in full: its facts, the step that caused it, headers, query, cookies and both bodies. */
function renderDetail(row: WaterfallRow, entry: HarEntry, failureTs: number, onSelectStep: (index: number) => void): Child[] {
  const { request, response } = entry;
  return [
    h('h3', null, `#${row.index} ${row.method} ${row.status === 0 ? 'failed' : `${row.status} ${response.statusText}`}`),
    h('p', { className: 'afr-req-detail-url' }, cutText(row.url, 2_000)),
    h('p', { className: 'afr-req-facts' }, [row.type, row.size === null ? null : formatBytes(row.size), `${Math.round(row.time_ms)} ms`, `started ${formatOffset(row.started_ts - failureTs)}`].filter(Boolean).join(' \u00B7 ')),
    row.error === null ? null : h('p', { className: 'afr-error' }, row.error),
    row.step >= 0
      ? h('p', null, 'caused by ', h('button', { className: 'afr-link', attrs: { type: 'button' }, data: { testid: 'request-step' }, on: { click: () => onSelectStep(row.step) } }, `step ${stepLabel(row.step)}`))
      : h('p', { className: 'afr-req-facts' }, 'no step of this tab before it'),
    pairs('Request headers', request.headers),
    pairs('Query', request.queryString),
    pairs('Request cookies', request.cookies),
    request.postData ? body('Request body', request.postData) : null,
    pairs('Response headers', response.headers),
    pairs('Response cookies', response.cookies),
    body('Response body', response.content),
  ];
}

/**
 * The Network panel: the requests of `network.har` as a waterfall of the bundle's window (status,
 * type, size, a time bar; the failure drawn across it), and the selected one with its headers and
 * bodies (JSON pretty-printed, the recorder's masks marked). Requests link to the step that caused
 * them (`onSelectStep`); a selected step marks its requests.
 */
export function renderNetworkPanel(data: BundleData, onSelectStep: (index: number) => void): NetworkPanel {
  const har = data.har ?? null;
  const heading = h('h2', null, 'Network');
  if (!har) {
    const element = h('section', { className: 'afr-panel afr-network', data: { testid: 'network' } }, heading, h('p', { className: 'afr-empty' }, `This bundle has no ${NETWORK_HAR_FILE} (written before the network log, or of no tab).`));
    return { element, waterfall: null, showStep: () => undefined, selectRequest: () => undefined };
  }
  const failureTs = failureTime(data);
  const { manifest } = data;
  const waterfall = waterfallOf(har, data.steps.steps, manifest.tab_id, Date.parse(manifest.started_at), Date.parse(manifest.ended_at), failureTs);
  const entries = har.log.entries;
  const failed = waterfall.rows.filter((r) => r.failed).length;
  heading.append(' ', h('span', { className: 'afr-count' }, `${waterfall.total} requests, ${failed} failed`));
  const items = waterfall.rows.map((row, i) => renderRow(row, waterfall.failureAt, () => selectRequest(i)));
  const stepLine = h('p', { className: 'afr-req-facts', data: { testid: 'step-requests' } });
  const detail = h('div', { className: 'afr-request-detail', data: { testid: 'request-detail' } }, h('p', { className: 'afr-empty' }, 'Select a request to see its headers and bodies.'));
  const element = h(
    'section',
    { className: 'afr-panel afr-network', data: { testid: 'network' } },
    heading,
    waterfall.total > waterfall.rows.length ? h('p', { className: 'afr-note' }, `The last ${waterfall.rows.length} requests of ${waterfall.total}; afr requests lists them all.`) : null,
    stepLine,
    waterfall.rows.length === 0
      ? h('p', { className: 'afr-empty' }, 'No request was recorded in the window.')
      : h('div', { className: 'afr-network-body' }, h('ol', { className: 'afr-requests', data: { testid: 'requests' } }, ...items), detail),
  );

  let selected: HTMLElement | null = null;
  function selectRequest(i: number) {
    const row = waterfall.rows[i];
    if (!row) return;
    selected?.classList.remove('afr-selected');
    selected = items[i]!;
    selected.classList.add('afr-selected');
    detail.replaceChildren();
    append(detail, ...renderDetail(row, entries[row.index - 1]!, failureTs, onSelectStep));
  }

  let marked: HTMLElement[] = [];
  const showStep = (index: number) => {
    marked.forEach((item) => item.classList.remove('afr-caused'));
    const caused = waterfall.requestsOfStep[index] ?? [];
    marked = caused.map((i) => items[i]!);
    marked.forEach((item) => item.classList.add('afr-caused'));
    stepLine.replaceChildren(
      ...(index < 0
        ? []
        : data.steps.steps[index]?.source === 'recorder'
          ? [`Step ${stepLabel(index)} is the recorder's own: select an action of the agent or the page to mark the requests it caused.`]
          : caused.length === 0
            ? [`Step ${stepLabel(index)} caused no request of this tab.`]
          : [
              `Step ${stepLabel(index)} caused: `,
              ...caused.map((i) => h('button', { className: 'afr-link', attrs: { type: 'button' }, on: { click: () => selectRequest(i) } }, `#${waterfall.rows[i]!.index}`)),
            ]),
    );
  };
  return { element, waterfall, showStep, selectRequest };
}

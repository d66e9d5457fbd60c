import { describe, expect, it } from 'vitest';
import { OTHER_TAB_STEPS, OTHER_TABS_LIMIT, consoleErrors, failedRequests, otherTabsActivity, pageMetrics, signalChain } from './diagnostics-report';
import type { Step, StepDetail } from '../../schemas/steps';
import type { PageSnapshot } from '../../schemas/snapshot';

let seq = 0;
const signal = (ts: number, detail: StepDetail, action = `signal: ${detail.signal_kind}`): Step => ({
  ts,
  seq: ++seq,
  tab_id: 1,
  frame_id: null,
  url: 'https://shop.test/checkout',
  source: 'recorder',
  kind: 'signal',
  action,
  target: null,
  value: null,
  value_redacted: false,
  outcome: 'fail',
  label: detail.message ?? null,
  detail,
});
const click = (ts: number): Step => ({ ...signal(ts, {}), source: 'observer', kind: 'click', action: 'click', detail: undefined });

const steps: Step[] = [
  click(0),
  signal(1_000, { signal_kind: 'console_error', disposition: 'record', message: 'console.error: widget failed' }),
  signal(2_000, { signal_kind: 'http_4xx', disposition: 'record', message: 'HTTP 401', status: 401, method: 'GET', request_url: 'https://shop.test/api/me', resource_type: 'Fetch', duration_ms: 30 }),
  signal(3_000, { signal_kind: 'network_failure', disposition: 'record', message: 'failed', method: 'POST', request_url: 'https://shop.test/api/pay', error_text: 'net::ERR_CONNECTION_REFUSED' }),
  signal(4_000, { signal_kind: 'exception', disposition: 'trigger', message: 'TypeError: boom' }, 'failure: page_exception'),
];

describe('diagnostics report', () => {
  it('lists the chain of signals before the failure, oldest first', () => {
    expect(signalChain(steps).map((s) => [s.kind, s.disposition, s.reason])).toEqual([
      ['console_error', 'record', 'console_error'],
      ['http_4xx', 'record', 'http_4xx'],
      ['network_failure', 'record', 'network_failure'],
      ['exception', 'trigger', 'page_exception'],
    ]);
  });

  it('lists console errors and failed requests with method, URL, status and timing', () => {
    expect(consoleErrors(steps)).toEqual([{ at: '1970-01-01T00:00:01.000Z', message: 'console.error: widget failed', url: 'https://shop.test/checkout' }]);
    expect(failedRequests(steps)).toEqual([
      { at: '1970-01-01T00:00:02.000Z', url: 'https://shop.test/api/me', method: 'GET', status: 401, resource_type: 'Fetch', duration_ms: 30, error_text: null },
      { at: '1970-01-01T00:00:03.000Z', url: 'https://shop.test/api/pay', method: 'POST', status: null, resource_type: null, duration_ms: null, error_text: 'net::ERR_CONNECTION_REFUSED' },
    ]);
  });

  it('lists a 2xx answer that said it failed with its excerpt and request id', () => {
    const step = signal(4_000, { signal_kind: 'app_error', disposition: 'record', status: 200, method: 'GET', request_url: 'https://shop.test/api/orders', request_id: '41.7', excerpt: '{"error":"token_expired"}' });
    expect(failedRequests([step])).toEqual([
      { at: '1970-01-01T00:00:04.000Z', url: 'https://shop.test/api/orders', method: 'GET', status: 200, resource_type: null, duration_ms: null, error_text: null, request_id: '41.7', excerpt: '{"error":"token_expired"}' },
    ]);
  });

  it('keeps only the last N of each list', () => {
    const many = Array.from({ length: 50 }, (_, i) => signal(i, { signal_kind: 'console_error', message: `e${i}` }));
    const last = consoleErrors(many, 20);
    expect(last).toHaveLength(20);
    expect(last.at(-1)!.message).toBe('e49');
  });

  it('measures the page from the snapshot tree', () => {
    const snapshot: PageSnapshot = {
      url: 'https://shop.test/',
      title: 'Shop',
      taken_at: 0,
      viewport: { width: 1280, height: 720, scroll_x: 0, scroll_y: 0 },
      node_count: 6,
      truncated: false,
      redaction: { fields: {}, text: {} },
      root: { tag: 'body', children: [{ tag: 'div', children: [{ tag: 'x-box', shadow_root: true, children: [{ tag: 'input' }] }] }, { tag: 'iframe', frame: 'same-origin', children: [{ tag: 'body' }] }] },
    };
    expect(pageMetrics(snapshot)).toEqual({ dom_nodes: 6, max_depth: 4, frames: 1, shadow_roots: 1, snapshot_truncated: false, viewport: snapshot.viewport });
    expect(pageMetrics(null)).toBeNull();
  });

  it("sums up the other tabs' activity, most recently active first, without the failing tab", () => {
    const on = (tab: number | null, step: Step, url = step.url): Step => ({ ...step, tab_id: tab, url });
    const all = [
      on(1, click(500)),
      on(2, click(1_000), 'https://mail.test/inbox'),
      on(2, signal(1_500, { signal_kind: 'console_error', disposition: 'record', message: 'oops' })),
      on(3, click(2_000), 'https://docs.test/a'),
      on(null, click(2_500)), // an agent step bound to no tab
      on(2, { ...click(3_000), action: 'type', label: 'Search' }, 'https://mail.test/search'),
    ];
    const frames = [
      { tabId: 1, ts: 600, url: 'https://shop.test/checkout' },
      { tabId: 3, ts: 2_100, url: 'https://docs.test/a' },
      { tabId: 3, ts: 3_500, url: 'https://docs.test/b' },
      { tabId: 4, ts: 100, url: null }, // frames only: a tab the agent looked at but did not act in
    ];
    expect(otherTabsActivity(1, all, frames)).toEqual([
      { tab_id: 3, url: 'https://docs.test/b', steps: 1, signals: 0, frames: 2, last_activity_at: new Date(3_500).toISOString(), last_steps: [{ at: new Date(2_000).toISOString(), kind: 'click', action: 'click', label: null }] },
      {
        tab_id: 2,
        url: 'https://mail.test/search',
        steps: 3,
        signals: 1,
        frames: 0,
        last_activity_at: new Date(3_000).toISOString(),
        last_steps: [
          { at: new Date(1_000).toISOString(), kind: 'click', action: 'click', label: null },
          { at: new Date(1_500).toISOString(), kind: 'signal', action: 'signal: console_error', label: 'oops' },
          { at: new Date(3_000).toISOString(), kind: 'click', action: 'type', label: 'Search' },
        ],
      },
      { tab_id: 4, url: null, steps: 0, signals: 0, frames: 1, last_activity_at: new Date(100).toISOString(), last_steps: [] },
    ]);
    // A failure bound to no tab: every tab is another tab.
    expect(otherTabsActivity(null, all, frames).map((t) => t.tab_id)).toEqual([3, 2, 1, 4]);
  });

  it('keeps the list short: the most recent tabs, each with its last few steps', () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ ...click(i * 100), tab_id: 10 + (i % 20) }));
    const tabs = otherTabsActivity(1, many, []);
    expect(tabs).toHaveLength(OTHER_TABS_LIMIT);
    expect(tabs[0]!.tab_id).toBe(29);
    const busy = otherTabsActivity(1, Array.from({ length: 12 }, (_, i) => ({ ...click(i), tab_id: 5 })), []);
    expect(busy[0]!.steps).toBe(12);
    expect(busy[0]!.last_steps.map((s) => s.at)).toEqual(Array.from({ length: OTHER_TAB_STEPS }, (_, i) => new Date(12 - OTHER_TAB_STEPS + i).toISOString()));
  });
});

import { describe, expect, it } from 'vitest';
import { inline, renderSummary } from './summary-md';
import type { Manifest } from '../../schemas/manifest';
import type { Diagnostics } from '../../schemas/diagnostics';
import type { Step } from '../../schemas/steps';
import { DEFAULT_SETTINGS } from '../../schemas/settings';

const manifest: Omit<Manifest, 'artifacts'> = {
  version: 1,
  bundle_id: 'afr-20261122T120000Z-abcdef',
  run_id: 'nightly-42',
  status: 'failure',
  started_at: '2026-11-22T11:59:45.000Z',
  ended_at: '2026-11-22T12:00:00.000Z',
  failure_reason: 'http_5xx',
  failure_label: null,
  failure_message: 'HTTP 500 Internal Server Error: POST https://shop.test/api/pay',
  url_at_failure: 'https://shop.test/checkout',
  tab_id: 7,
  frame_count: 26,
  frames: [],
  step_count: 3,
  buffer_seconds: 15,
  capture_level: 'full',
  run: { agent: 'shop-bot', agent_version: '2.1', task: 'buy shoes', started_at: null, outcome: null },
  clip: { name: 'failure.mp4', duration_seconds: 15.2, encoder: 'webcodecs' },
  capture: { source: 'visibleTab', fps: 8, interval_ms: 550, masked_regions: 0, dropped_frames: 0, jpeg_quality: 70, max_buffer_bytes: 1 },
  settings: DEFAULT_SETTINGS,
  extension: { name: 'Agent Flight Recorder', version: '0.1.0' },
};

const step = (over: Partial<Step>): Step => ({
  ts: Date.parse('2026-11-22T11:59:58.000Z'),
  seq: 1,
  tab_id: 7,
  frame_id: 0,
  url: null,
  source: 'observer',
  kind: 'click',
  action: 'click',
  target: { tag: 'button', selector: '#place-order', name: 'Place order' },
  value: null,
  value_redacted: false,
  outcome: null,
  label: null,
  ...over,
});

const diagnostics = {
  failure: {
    kind: 'http_5xx',
    reason: 'http_5xx',
    label: null,
    origin: 'debugger',
    tab_id: 7,
    url: 'https://shop.test/checkout',
    ts: 0,
    message: 'HTTP 500',
    stack: null,
    http_status: 500,
    request: { url: 'https://shop.test/api/pay', method: 'POST', status: 500, resource_type: 'Fetch', duration_ms: 84, error_text: null },
  },
  signal_chain: [
    { at: '2026-11-22T11:59:59.000Z', kind: 'console_error', disposition: 'record', reason: 'console_error', message: 'console.error: retrying' },
    { at: '2026-11-22T12:00:00.000Z', kind: 'http_5xx', disposition: 'trigger', reason: 'http_5xx', message: 'HTTP 500' },
  ],
  console_errors: [{ at: '2026-11-22T11:59:59.000Z', message: 'console.error: retrying', url: null }],
  failed_requests: [{ at: '2026-11-22T12:00:00.000Z', url: 'https://shop.test/api/pay', method: 'POST', status: 500, resource_type: 'Fetch', duration_ms: 84, error_text: null }],
  page_metrics: { dom_nodes: 310, max_depth: 12, frames: 1, shadow_roots: 0, snapshot_truncated: false, viewport: { width: 1280, height: 720, scroll_x: 0, scroll_y: 0 } },
  redaction: { fields: { password: 1, credit_card: 2 }, text: {} },
  warnings: [],
} as unknown as Diagnostics;

describe('renderSummary', () => {
  const steps = [
    step({ kind: 'input', action: 'type', target: { tag: 'input', selector: '#card-number' }, value_redacted: true }),
    step({ source: 'agent', kind: 'agent', action: 'place the order', target: null, reasoning: 'the cart is complete', outcome: 'ok' }),
    step({}),
    step({ source: 'recorder', kind: 'signal', action: 'failure: http_5xx', target: null }),
  ];
  const text = renderSummary(manifest, diagnostics, steps);

  it('says what broke, where, and what the agent did last, in plain language', () => {
    expect(text).toMatch(/^# Failure: http_5xx/);
    expect(text).toContain('**What broke:** a server error response');
    expect(text).toContain('**Request:** `POST https://shop.test/api/pay` answered 500 after 84 ms');
    expect(text).toContain('**Where:** `https://shop.test/checkout` (tab 7)');
    expect(text).toContain('agent `shop-bot 2.1`, task `buy shoes`');
    expect(text).toContain('[observer] type on `#card-number` = (redacted)');
    expect(text).toContain('[agent] place the order → ok — reasoning: the cart is complete');
    expect(text).toContain('on `#place-order ("Place order")`');
    expect(text).toContain('## Signals before the failure');
    expect(text).toContain('## Failed requests');
    expect(text).toContain('26 frames over 15.0 s; failure.mp4 (15.2 s)');
    expect(text).toContain('DOM snapshot of 310 nodes; 3 sensitive fields withheld');
  });

  it('keeps page text on one line and out of code-span breakouts', () => {
    expect(inline('a\n\n`b`  c')).toBe("a 'b' c");
    expect(inline('x'.repeat(500), 10)).toHaveLength(10);
  });

  it('titles a passing run', () => {
    expect(renderSummary({ ...manifest, status: 'success', failure_reason: 'run_passed' }, null, [])).toMatch(/^# Run passed/);
  });
});

import { describe, expect, it } from 'vitest';
import { code, failingRequestLine, inline, renderSummary } from './summary-md';
import { manifestSettings, type Manifest } from '../../schemas/manifest';
import type { Diagnostics } from '../../schemas/diagnostics';
import type { Step } from '../../schemas/steps';
import { DEFAULT_SETTINGS } from '../../schemas/settings';

const manifest: Omit<Manifest, 'artifacts'> = {
  version: 2,
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
  settings: manifestSettings(DEFAULT_SETTINGS),
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
    expect(text).toContain('[agent] `place the order` → ok — reasoning: `the cart is complete`');
    expect(text).toContain('on `#place-order ("Place order")`');
    expect(text).toContain('## Signals before the failure');
    expect(text).toContain('## Failed requests');
    expect(text).toContain('26 frames over 15.0 s; failure.mp4 (15.2 s)');
    expect(text).toContain('DOM snapshot of 310 nodes; 3 sensitive fields withheld');
  });

  it('tells the last three changes the steps made, in plain words', () => {
    const diff = { from_checkpoint: 0, to_checkpoint: 1, new_document: false, added: [], removed: [], text: [], attributes: [], values: [] };
    const changed = (n: number, description: string) =>
      step({ seq: n, target: { tag: 'button', selector: `#b${n}`, name: `Add ${n}` }, changes: { to: 'snapshots/page-002.json', description, diff } });
    const md = renderSummary(manifest, diagnostics, [changed(1, 'first'), changed(2, 'nothing changed'), changed(3, 'second'), changed(4, 'third'), changed(5, "the text of the span changed from '0' to '1'")]);
    const section = md.slice(md.indexOf('## What changed'));
    expect(section).not.toContain('`first`');
    expect(section).not.toContain('nothing changed');
    // Numbered as every reader numbers steps: by position in steps.json.
    expect(section).toContain("- #5 after click on `button 'Add 5'`: `the text of the span changed from '0' to '1'`");
    expect(section.split('\n').filter((l) => / after /.test(l) && l.startsWith('- #'))).toHaveLength(3);
    expect(md).toMatch(/## What the agent did last\n\n- #1 \d/);
  });

  it('names the screen at the failure as every reader does (the frame on screen when it happened)', () => {
    const T = Date.parse(manifest.ended_at);
    const frame = (i: number, ts: number) => ({ name: `frames/frame_000${i}.jpeg`, captured_at: new Date(ts).toISOString(), ts, duration_ms: 500, width: 4, height: 4, source: 'visibleTab' as const });
    const framed = { ...manifest, frame_count: 3, frames: [frame(1, T - 2000), frame(2, T - 600), frame(3, T + 100)] };
    expect(renderSummary(framed, { ...diagnostics, failure: { ...diagnostics.failure, ts: T } }, steps)).toContain('- the screen at the failure: frame 2, `frames/frame_0002.jpeg`');
  });

  it('counts the captures the frames stand for when identical ones in a row were stored once', () => {
    const frame = (i: number, ts: number) => ({ name: `frames/frame_000${i}.jpeg`, captured_at: new Date(ts).toISOString(), ts, duration_ms: 500, width: 4, height: 4, source: 'visibleTab' as const });
    const T = Date.parse(manifest.started_at);
    const merged = { ...manifest, frame_count: 2, frames: [{ ...frame(1, T), captures: 4, last_ts: T + 375 }, frame(2, T + 500)] };
    expect(renderSummary(merged, diagnostics, steps)).toContain('2 frames (5 captures, identical ones in a row stored once) over 15.0 s');
    expect(renderSummary({ ...merged, frames: [frame(1, T), frame(2, T + 500)] }, diagnostics, steps)).toContain('2 frames over 15.0 s');
  });

  it('keeps page text on one line, its controls escaped', () => {
    expect(inline('a\n\n`b`  c\u2028d')).toBe('a `b` c d');
    expect(inline('x\x1b[2J\u202e')).toBe('x\\x1b[2J\\u202e');
    expect(inline('x'.repeat(500), 10)).toHaveLength(10);
  });

  it.each([
    ['plain', '`plain`'],
    ['a `b` c', '``a `b` c``'],
    ['``x```', '```` ``x``` ````'],
    ['`', '`` ` ``'],
    ['', '`—`'],
  ])('puts %j in a code span its backticks cannot close', (text, span) => {
    expect(code(text)).toBe(span);
  });

  it('titles a passing run', () => {
    expect(renderSummary({ ...manifest, status: 'success', failure_reason: 'run_passed' }, null, [])).toMatch(/^# Run passed/);
  });

  it('gives the command that reproduces a failure, and none for a passing run', () => {
    expect(text).toContain(`- reproduce it: \`afr repro ${manifest.bundle_id}.zip --run\``);
    expect(renderSummary({ ...manifest, status: 'success', failure_reason: 'run_passed' }, null, [])).not.toContain('afr repro');
  });
});

/** The Markdown outside code spans, found the way CommonMark does: a backtick run opens a span closed by the next run of the same length. */
function outsideCodeSpans(markdown: string): string {
  let out = '';
  let at = 0;
  while (at < markdown.length) {
    const open = /`+/g;
    open.lastIndex = at;
    const run = open.exec(markdown);
    if (!run) break;
    out += markdown.slice(at, run.index);
    const close = new RegExp(`(?<!\`)${'`'.repeat(run[0].length)}(?!\`)`, 'g');
    close.lastIndex = run.index + run[0].length;
    const end = close.exec(markdown);
    if (!end) {
      out += run[0];
      at = run.index + run[0].length;
    } else at = end.index + end[0].length;
  }
  return out + markdown.slice(at);
}

describe('failingRequestLine', () => {
  const signal = (detail: Step['detail'], seq = 2) => step({ seq, source: 'recorder', kind: 'signal', action: `signal: ${detail!.signal_kind}`, target: null, detail });
  const appError = signal({ signal_kind: 'app_error', disposition: 'record', status: 200, method: 'GET', request_url: 'https://shop.test/api/orders?page=1', excerpt: '{"error":"token_expired"}', har_entry: 3 });

  it.each<[string, Step[], string | null]>([
    ['a 200 that says it failed, with its excerpt and HAR entry', [step({}), appError], '`GET https://shop.test/api/orders?page=1` answered 200 that says it failed: `{"error":"token_expired"}` (step #2, network.har entry 3)'],
    [
      'the last of several',
      [appError, step({}), signal({ signal_kind: 'http_5xx', disposition: 'trigger', status: 500, method: 'POST', request_url: 'https://shop.test/api/pay', har_entry: 5 })],
      '`POST https://shop.test/api/pay` answered 500 (step #3, network.har entry 5)',
    ],
    ['a request with no answer, not in the HAR', [signal({ signal_kind: 'network_failure', disposition: 'record', method: 'GET', request_url: 'https://cdn.test/a.js', error_text: 'net::ERR_NAME_NOT_RESOLVED' })], '`GET https://cdn.test/a.js` failed with `net::ERR_NAME_NOT_RESOLVED` (step #1)'],
    ['none: signals about no request', [step({}), signal({ signal_kind: 'exception', disposition: 'trigger', message: 'boom' })], null],
  ])('%s', (_name, steps, line) => {
    expect(failingRequestLine(steps)).toBe(line);
  });

  it('quotes the answer of an app_error that made the bundle', () => {
    const failure = { ...diagnostics.failure!, kind: 'app_error', reason: 'app_error', request: { ...diagnostics.failure!.request!, method: 'GET', url: 'https://shop.test/api/orders', status: 200, excerpt: '{"error":"token_expired"}' } };
    const text = renderSummary({ ...manifest, failure_reason: 'app_error' }, { ...diagnostics, failure } as Diagnostics, [appError]);
    expect(text).toContain('**What broke:** an answer that says it failed');
    expect(text).toContain('**Request:** `GET https://shop.test/api/orders` answered 200 after 84 ms, saying `{"error":"token_expired"}`');
  });

  it('is in summary.md', () => {
    expect(renderSummary(manifest, diagnostics, [step({}), appError])).toContain('**Last failing request:** `GET https://shop.test/api/orders?page=1` answered 200 that says it failed');
    expect(renderSummary(manifest, diagnostics, [step({})])).not.toContain('Last failing request');
  });
});

describe('renderSummary of a hostile page', () => {
  const PAGE = [
    '![x](https://evil.test/beacon.png)',
    '[click](javascript:alert(1))',
    '<img src=x onerror=alert(1)>',
    '<div>raw HTML</div>',
    'https://evil.test/autolink',
    'www.evil.test',
    '<https://evil.test/angle>',
    'mail@evil.test',
    '`` ![y](https://evil.test/b.png) ``',
    '\n[ref]: https://evil.test/ref\n# forged heading\n',
    '```',
    '\x1b]0;title\x07\u202e',
  ].join(' ');
  const hostileStep = step({ source: 'agent', kind: 'agent', action: PAGE, target: { tag: 'a', selector: PAGE, name: PAGE }, value: PAGE, reasoning: PAGE, outcome: 'fail' });
  const hostileDiagnostics = {
    ...diagnostics,
    failure: { ...diagnostics.failure, kind: PAGE, message: PAGE, stack: `Error\n    at ${PAGE}`, request: { ...diagnostics.failure.request!, url: PAGE, method: PAGE, error_text: PAGE } },
    signal_chain: [
      { at: PAGE, kind: PAGE, disposition: PAGE, reason: PAGE, message: PAGE },
      { at: '2026-11-22T12:00:00.000Z', kind: 'http_5xx', disposition: 'trigger', reason: PAGE, message: null },
    ],
    console_errors: [{ at: PAGE, message: PAGE, url: PAGE }],
    failed_requests: [{ at: PAGE, url: PAGE, method: PAGE, status: null, resource_type: PAGE, duration_ms: null, error_text: PAGE }],
    warnings: [PAGE],
  } as unknown as Diagnostics;
  const hostileManifest = {
    ...manifest,
    run_id: PAGE,
    failure_reason: PAGE,
    failure_label: PAGE,
    failure_message: PAGE,
    url_at_failure: PAGE,
    ended_at: PAGE,
    capture_level: PAGE,
    run: { ...manifest.run, agent: PAGE, agent_version: PAGE, task: PAGE },
  } as unknown as Omit<Manifest, 'artifacts'>;
  const hostileRequest = step({ source: 'recorder', kind: 'signal', action: PAGE, target: null, detail: { signal_kind: 'app_error', status: 200, method: PAGE, request_url: PAGE, excerpt: PAGE, error_text: PAGE } });
  const text = renderSummary(hostileManifest, hostileDiagnostics, [hostileStep, step({ action: PAGE, target: PAGE, value_redacted: true }), hostileRequest]);
  const outside = outsideCodeSpans(text);

  it('leaves no link, image, autolink or HTML of the page live', () => {
    expect(text).toContain('![x](https://evil.test/beacon.png)');
    for (const live of ['](', '![', '<', '>', '://', 'javascript', 'www.', '@', '[click]', '[ref]']) expect(outside).not.toContain(live);
  });

  it('lets no page text start a line or drive a terminal', () => {
    for (const line of text.split('\n')) expect(line).toMatch(/^(|# |## |\*\*[A-Z][a-z ]+:\*\* |- )/);
    expect(text).not.toContain('\n# forged heading');
    // eslint-disable-next-line no-control-regex -- finding control characters is what this test is for
    expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/);
    expect(code('\x1b]0;title\x07\u202e')).toBe('`\\x1b]0;title\\x07\\u202e`');
  });

  it('stays readable for ordinary page text', () => {
    expect(renderSummary(manifest, diagnostics, [])).toContain('- 11:59:59.000 console_error (record): `console.error: retrying`');
  });
});

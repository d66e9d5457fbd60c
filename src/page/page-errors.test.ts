// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PageErrorSignalMessageSchema, type PageErrorSignalMessage } from '../../schemas/messages';
import { startPageErrorRelay } from './page-bridge';
import { PAGE_ERROR_SOURCE, installPageErrorForwarder, type PageErrorPost } from './page-errors';
import { PAGE_ERROR_LIMITS } from '../../schemas/content-port';
import { BUILT_IN_MASKER } from '../redact/mask-text';

const builtIn = () => BUILT_IN_MASKER;


function pageEvent(type: string, props: Record<string, unknown>): Event {
  return Object.assign(new Event(type), props);
}

describe('installPageErrorForwarder (page world)', () => {
  let posted: unknown[];
  let uninstall: () => void;

  beforeEach(() => {
    posted = [];
    vi.spyOn(window, 'postMessage').mockImplementation((data: unknown) => void posted.push(data));
    uninstall = installPageErrorForwarder(window);
  });
  afterEach(() => uninstall());

  it('forwards uncaught errors with message and stack', () => {
    const error = new TypeError('cart is undefined');
    const before = Date.now();
    window.dispatchEvent(pageEvent('error', { message: 'Uncaught TypeError: cart is undefined', error }));
    expect(posted).toEqual([
      { source: PAGE_ERROR_SOURCE, kind: 'error', message: 'Uncaught TypeError: cart is undefined', stack: error.stack, ts: expect.any(Number) },
    ]);
    // Dated when thrown, in the page: its relay may run much later.
    expect((posted[0] as { ts: number }).ts).toBeGreaterThanOrEqual(before);
    expect((posted[0] as { ts: number }).ts).toBeLessThanOrEqual(Date.now());
  });

  it('forwards unhandled rejections of errors and of plain values', () => {
    window.dispatchEvent(pageEvent('unhandledrejection', { reason: new Error('payment declined') }));
    window.dispatchEvent(pageEvent('unhandledrejection', { reason: 42 }));
    expect(posted).toMatchObject([
      { kind: 'unhandledrejection', message: 'Error: payment declined', stack: expect.stringContaining('payment declined') },
      { kind: 'unhandledrejection', message: '42', stack: null },
    ]);
  });

  it('survives hostile values and caps sizes', () => {
    const hostile = {
      toString() {
        throw new Error('no');
      },
      get stack(): string {
        throw new Error('no');
      },
    };
    window.dispatchEvent(pageEvent('unhandledrejection', { reason: hostile }));
    window.dispatchEvent(pageEvent('error', { message: 'm'.repeat(100_000), error: { stack: 's'.repeat(100_000) } }));
    expect(posted[0]).toMatchObject({ message: '[unprintable value]', stack: null });
    const capped = posted[1] as PageErrorPost;
    expect(capped.message).toHaveLength(PAGE_ERROR_LIMITS.messageChars);
    expect(capped.stack).toHaveLength(PAGE_ERROR_LIMITS.stackChars);
  });

  it('uses the builtins saved at install, not what the page put there later', () => {
    const replaced = vi.fn();
    window.postMessage = replaced;
    const realSlice = String.prototype.slice;
    String.prototype.slice = () => 'hijacked';
    try {
      window.dispatchEvent(pageEvent('error', { message: 'x'.repeat(5000) }));
    } finally {
      String.prototype.slice = realSlice;
    }
    expect(replaced).not.toHaveBeenCalled();
    expect((posted[0] as PageErrorPost).message).toHaveLength(PAGE_ERROR_LIMITS.messageChars);
  });

  it('posts at most 20 errors at once', () => {
    for (let i = 0; i < 100; i++) window.dispatchEvent(pageEvent('error', { message: `e${i}` }));
    expect(posted).toHaveLength(20);
  });
});

describe('startPageErrorRelay (isolated world)', () => {
  let emitted: PageErrorSignalMessage[];
  let warnings: string[];
  let clock: number;
  let dispose: () => void;
  const post = (data: unknown) => window.dispatchEvent(new MessageEvent('message', { data, source: window }));

  beforeEach(() => {
    emitted = [];
    warnings = [];
    clock = 5_000;
    dispose = startPageErrorRelay(window, (m) => emitted.push(m), builtIn, { now: () => clock, warn: (m) => warnings.push(m) });
  });
  afterEach(() => dispose());

  it('emits signal/page-error with URLs redacted and personal data masked', () => {
    post({
      source: PAGE_ERROR_SOURCE,
      kind: 'error',
      message: 'Uncaught Error: no account for jane@example.com',
      stack: 'Error\n    at f (https://cdn.test/app.js?token=abc:1:2)',
    });
    expect(emitted).toEqual([
      {
        type: 'signal/page-error',
        ts: 5_000,
        url: 'http://localhost:3000/',
        kind: 'error',
        message: 'Uncaught Error: no account for [email]',
        stack: 'Error\n    at f (https://cdn.test/app.js?token=REDACTED:1:2)',
      },
    ]);
    expect(PageErrorSignalMessageSchema.safeParse(emitted[0]).success).toBe(true);
  });

  it('dates a report when the page threw it, unless that is not a moment before the relay ran', () => {
    const at = (ts: unknown) => {
      emitted.length = 0;
      post({ source: PAGE_ERROR_SOURCE, kind: 'error', message: 'Uncaught Error: x', stack: null, ts });
      return emitted[0]?.ts;
    };
    expect(at(3_500)).toBe(3_500); // thrown 1.5 s before a busy page ran the relay
    expect(at(undefined)).toBe(5_000);
    expect(at(9_000)).toBe(5_000); // in the future
    expect(at(-1_000)).toBe(5_000); // too long ago
    expect(at('soon')).toBeUndefined(); // not a time: the report is refused
  });

  it.each([
    ['unknown kind', { source: PAGE_ERROR_SOURCE, kind: 'warning', message: 'm', stack: null }],
    ['missing message', { source: PAGE_ERROR_SOURCE, kind: 'error', stack: null }],
    ['non-string stack', { source: PAGE_ERROR_SOURCE, kind: 'error', message: 'm', stack: ['a'] }],
    ['extra field', { source: PAGE_ERROR_SOURCE, kind: 'error', message: 'm', stack: null, x: 'y' }],
    ['oversized message', { source: PAGE_ERROR_SOURCE, kind: 'error', message: 'm'.repeat(2_000_000), stack: null }],
  ])('ignores %s with a warning', (_name, data) => {
    post(data);
    expect(emitted).toEqual([]);
    expect(warnings).toHaveLength(1);
  });

  it('ignores the public protocol tag and other windows', () => {
    post({ source: 'agent-flight-recorder', kind: 'error', message: 'm', stack: null });
    window.dispatchEvent(new MessageEvent('message', { data: { source: PAGE_ERROR_SOURCE, kind: 'error', message: 'm', stack: null } }));
    expect(emitted).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('relays at most 10 at once, then 1 per second', () => {
    for (let i = 0; i < 30; i++) post({ source: PAGE_ERROR_SOURCE, kind: 'error', message: `m${i}`, stack: null });
    expect(emitted).toHaveLength(10);
    clock += 3_000;
    for (let i = 0; i < 30; i++) post({ source: PAGE_ERROR_SOURCE, kind: 'error', message: `n${i}`, stack: null });
    expect(emitted).toHaveLength(13);
  });
});

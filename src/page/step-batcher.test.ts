import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STEP_BATCH_MAX, ToBackgroundMessageSchema, type StepObservedMessage, type ToBackgroundMessage } from '../../schemas/messages';
import { createStepBatcher } from './step-batcher';
import { STEP_BATCH_WINDOW_MS } from '../../schemas/content-port';

const step = (action: string): StepObservedMessage => ({
  type: 'step/observed',
  ts: Date.now(),
  url: 'https://shop.test/checkout',
  kind: 'click',
  action,
  target: null,
  value: null,
  value_redacted: false,
  outcome: null,
  label: null,
});
const rects: ToBackgroundMessage = { type: 'redaction/rects', ts: 0, url: 'https://shop.test/checkout', viewport: { width: 800, height: 600 }, device_pixel_ratio: 1, rects: [] };

const command: ToBackgroundMessage = { type: 'agent/command', ts: 0, url: 'https://shop.test/checkout', command: { kind: 'fail', reason: 'assertion_failed' } };
const pageError: ToBackgroundMessage = { type: 'signal/page-error', ts: 0, url: 'https://shop.test/checkout', kind: 'error', message: 'boom', stack: null };

/** What the background received: each post as the list of step actions it carried, or its type. */
function recorder() {
  const posts: ToBackgroundMessage[] = [];
  const batcher = createStepBatcher((m) => posts.push(m));
  const seen = () =>
    posts.map((m) => (m.type === 'step/batch' ? m.steps.map((s) => s.action) : m.type === 'step/observed' ? [m.action] : m.type));
  return { batcher, posts, seen };
}

describe('createStepBatcher', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
  });
  afterEach(() => vi.useRealTimers());

  it('sends a lone step at once', () => {
    const { batcher, seen } = recorder();
    batcher.send(step('a'));
    expect(seen()).toEqual([['a']]);
  });

  it('during a quick run, sends the steps after the first as one batch, a window after the last post', () => {
    const { batcher, seen, posts } = recorder();
    batcher.send(step('a'));
    vi.advanceTimersByTime(10);
    batcher.send(step('b'));
    vi.advanceTimersByTime(10);
    batcher.send(step('c'));
    expect(seen()).toEqual([['a']]);
    vi.advanceTimersByTime(STEP_BATCH_WINDOW_MS - 21);
    expect(seen()).toEqual([['a']]);
    vi.advanceTimersByTime(1);
    expect(seen()).toEqual([['a'], ['b', 'c']]);
    expect(posts[1]!.type).toBe('step/batch');
    // Every post is a message the background accepts.
    for (const post of posts) expect(ToBackgroundMessageSchema.safeParse(post).success).toBe(true);
  });

  it('sends a step at once again once a window has passed without a post', () => {
    const { batcher, seen } = recorder();
    batcher.send(step('a'));
    vi.advanceTimersByTime(STEP_BATCH_WINDOW_MS);
    batcher.send(step('b'));
    expect(seen()).toEqual([['a'], ['b']]);
  });

  it('flushes the waiting steps before an agent command or a page error, so the background sees them in order', () => {
    const { batcher, seen } = recorder();
    batcher.send(step('a'));
    batcher.send(step('b'));
    batcher.send(command);
    batcher.send(step('c'));
    batcher.send(pageError);
    expect(seen()).toEqual([['a'], ['b'], 'agent/command', ['c'], 'signal/page-error']);
    vi.advanceTimersByTime(STEP_BATCH_WINDOW_MS * 2);
    expect(seen()).toHaveLength(5);
  });

  it('sends a region report at once, past the waiting steps (they keep waiting)', () => {
    const { batcher, seen } = recorder();
    batcher.send(step('a'));
    batcher.send(step('b'));
    batcher.send(rects);
    expect(seen()).toEqual([['a'], 'redaction/rects']);
    vi.advanceTimersByTime(STEP_BATCH_WINDOW_MS);
    expect(seen()).toEqual([['a'], 'redaction/rects', ['b']]);
  });

  it(`never carries more than ${STEP_BATCH_MAX} steps in one batch`, () => {
    const { batcher, posts } = recorder();
    for (let i = 0; i < STEP_BATCH_MAX * 2 + 1; i++) batcher.send(step(`s${i}`));
    vi.advanceTimersByTime(STEP_BATCH_WINDOW_MS);
    const sizes = posts.map((m) => (m.type === 'step/batch' ? m.steps.length : 1));
    expect(sizes).toEqual([1, STEP_BATCH_MAX, STEP_BATCH_MAX]);
    expect(sizes.reduce((a, b) => a + b)).toBe(STEP_BATCH_MAX * 2 + 1);
  });

  it('flush() posts the waiting steps now; dispose() drops them and the timer', () => {
    const { batcher, seen } = recorder();
    batcher.send(step('a'));
    batcher.send(step('b'));
    batcher.flush();
    expect(seen()).toEqual([['a'], ['b']]);
    batcher.send(step('c'));
    batcher.dispose();
    vi.advanceTimersByTime(STEP_BATCH_WINDOW_MS * 2);
    expect(seen()).toEqual([['a'], ['b']]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sends every step at once while the page says so (hidden: its timers may fire a second late)', () => {
    let hidden = true;
    const posts: ToBackgroundMessage[] = [];
    const batcher = createStepBatcher((m) => posts.push(m), { unbatched: () => hidden });
    batcher.send(step('a'));
    batcher.send(step('b'));
    expect(posts.map((m) => m.type === 'step/observed' && m.action)).toEqual(['a', 'b']);
    hidden = false;
    batcher.send(step('c'));
    expect(posts).toHaveLength(2);
    expect(vi.getTimerCount()).toBe(1);
  });

  it('waits at most a window when the clock was set back since the last post', () => {
    const { batcher, seen } = recorder();
    batcher.send(step('a'));
    vi.setSystemTime(1_000_000 - 60_000);
    batcher.send(step('b'));
    vi.advanceTimersByTime(STEP_BATCH_WINDOW_MS);
    expect(seen()).toEqual([['a'], ['b']]);
  });
});

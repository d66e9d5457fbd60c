// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { SensitiveRectsMessageSchema, type SensitiveRectsMessage } from '../../../schemas/messages';
import { createGuard } from './guard';
import { FIELD, fire, quiet, useReporterHarness } from '../../../test/fakes/rect-reporter-harness';
import { startSyncAnswers, type SyncAnswers } from './sync-answers';

describe('startSyncAnswers', () => {
  let frames: FrameRequestCallback[];
  let report: SensitiveRectsMessage | null;
  let measure: Mock<() => SensitiveRectsMessage | null>;
  let paceLeft: Mock<() => number>;
  let warn: Mock<(message: string) => void>;
  let answers: SyncAnswers;
  const runFrame = () => frames.splice(0).forEach((cb) => cb?.(0));
  const setHidden = (hidden: boolean) => Object.defineProperty(document, 'hidden', { value: hidden, configurable: true });

  beforeEach(() => {
    vi.useFakeTimers();
    frames = [];
    report = { type: 'redaction/rects', ts: 1, url: 'https://example.com/', viewport: { width: 800, height: 600 }, device_pixel_ratio: 1, rects: [FIELD] };
    measure = vi.fn(() => report);
    paceLeft = vi.fn(() => 0);
    warn = vi.fn();
    // The test's window, its animation frames run when the test says.
    const win = new Proxy(window, {
      get(target, key) {
        if (key === 'requestAnimationFrame') return (cb: FrameRequestCallback) => frames.push(cb);
        if (key === 'cancelAnimationFrame') return (id: number) => delete frames[id - 1];
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    answers = startSyncAnswers(win, { measure, paceLeft, guarded: createGuard(warn) });
  });
  afterEach(() => {
    answers.stop();
    setHidden(false);
    vi.useRealTimers();
  });

  it('measures once at the second animation frame, for every question waiting', () => {
    const got: unknown[] = [];
    answers.sync((r) => got.push(r));
    runFrame();
    answers.sync((r) => got.push(r)); // counts its own two frames: both answered then
    runFrame();
    expect(got).toEqual([]);
    runFrame();
    expect(got).toEqual([report, report]);
    expect(measure).toHaveBeenCalledOnce();
  });

  it('waits as long as the pacing says, then one more animation frame', () => {
    const answer = vi.fn();
    paceLeft.mockReturnValue(50);
    answers.sync(answer);
    runFrame();
    runFrame();
    expect(answer).not.toHaveBeenCalled();
    paceLeft.mockReturnValue(0);
    vi.advanceTimersByTime(50);
    expect(answer).not.toHaveBeenCalled();
    runFrame();
    expect(answer).toHaveBeenCalledWith(report);
  });

  it('answers at once in a hidden document, and when the document is hidden with a question waiting', () => {
    const answer = vi.fn();
    answers.sync(answer);
    setHidden(true);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(answer).toHaveBeenCalledOnce();
    answers.sync(answer);
    expect(answer).toHaveBeenCalledTimes(2);
    expect(frames.filter(Boolean)).toEqual([]);
  });

  it('answers the questions waiting on stop, and null to any later one', () => {
    const answer = vi.fn();
    answers.sync(answer);
    report = null; // what the reporter measures once stopped
    answers.stop();
    answers.sync(answer);
    expect(answer.mock.calls).toEqual([[null], [null]]);
    runFrame();
    runFrame();
    expect(answer).toHaveBeenCalledTimes(2);
  });

  it('answers every question though one of them throws', () => {
    const answer = vi.fn();
    answers.sync(() => {
      throw new Error('boom');
    });
    answers.sync(answer);
    runFrame();
    runFrame();
    expect(answer).toHaveBeenCalledOnce();
    expect(warn).toHaveBeenCalledWith('answering with the sensitive regions failed: boom');
  });
});

describe('startSensitiveRectReporter: answering a sync (a frame asks where the fields are)', () => {
  const h = useReporterHarness();

  /** One animation frame of the fake clock. */
  const nextFrame = () => vi.advanceTimersByTime(17);
  const setHidden = (hidden: boolean) => Object.defineProperty(document, 'hidden', { value: hidden, configurable: true });
  afterEach(() => setHidden(false));

  it('answers at the second animation frame, with the regions then, unchanged or not, and the reports go on as if it had not', async () => {
    const stop = h.start({ pollMs: 0 });
    h.current = [FIELD];
    stop.refresh();
    const before = h.sent.length;
    const answers: (SensitiveRectsMessage | null)[] = [];
    // Two frames waiting: one measurement answers both.
    stop.sync((r) => answers.push(r));
    stop.sync((r) => answers.push(r));
    nextFrame();
    // The frame already asked for may carry the compositor's scroll from before the question: not yet.
    expect(answers).toEqual([]);
    h.current = [{ ...FIELD, y: 400 }];
    nextFrame();
    expect(answers.map((r) => r?.rects)).toEqual([[{ ...FIELD, y: 400 }], [{ ...FIELD, y: 400 }]]);
    expect(SensitiveRectsMessageSchema.safeParse(answers[0]).success).toBe(true);
    // Unchanged: answered all the same.
    stop.sync((r) => answers.push(r));
    nextFrame();
    nextFrame();
    expect(answers.at(-1)?.rects).toEqual([{ ...FIELD, y: 400 }]);
    // Not sent on the port; the next report sends the move all the same (the answer may have been lost).
    expect(h.sent).toHaveLength(before);
    quiet();
    await fire('scroll', document);
    expect(h.sent.at(-1)?.rects).toEqual([{ ...FIELD, y: 400 }]);
  });

  it('answers a question that came while another waited two animation frames after it, both at once', () => {
    const stop = h.start({ pollMs: 0 });
    const answers: string[] = [];
    stop.sync(() => answers.push('first'));
    nextFrame();
    stop.sync(() => answers.push('second'));
    nextFrame();
    expect(answers).toEqual([]);
    nextFrame();
    expect(answers).toEqual(['first', 'second']);
  });

  it('answers at once in a hidden document, and when the document is hidden with a question waiting', () => {
    const stop = h.start({ pollMs: 0 });
    h.current = [FIELD];
    const answers: (SensitiveRectsMessage | null)[] = [];
    stop.sync((r) => answers.push(r));
    setHidden(true);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(answers.map((r) => r?.rects)).toEqual([[FIELD]]);
    stop.sync((r) => answers.push(r));
    expect(answers).toHaveLength(2);
  });

  it('waits longer to answer when measuring is slow', () => {
    const stop = h.start({ pollMs: 0, collect: h.slowCollect(20) });
    const answers: (SensitiveRectsMessage | null)[] = [];
    stop.refresh(); // 20 ms: the next measurement waits 160 ms after it
    stop.sync((r) => answers.push(r));
    nextFrame();
    nextFrame();
    expect(answers).toEqual([]);
    vi.advanceTimersByTime(160);
    expect(answers).toHaveLength(1);
  });

  it('answers null once stopped, and before the document has painted', () => {
    let painted: () => void = () => {};
    const stop = h.start({
      whenPainted: (onPainted) => {
        painted = onPainted;
        return () => {};
      },
    });
    const answers: (SensitiveRectsMessage | null)[] = [];
    stop.sync((r) => answers.push(r));
    nextFrame();
    nextFrame();
    expect(answers).toEqual([null]);
    painted();
    stop.sync((r) => answers.push(r));
    stop(); // waiting: answered now
    stop.sync((r) => answers.push(r));
    expect(answers).toEqual([null, null, null]);
  });
});

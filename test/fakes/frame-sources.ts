import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, vi } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '../../schemas/settings';
import type { SensitiveRectsMessage } from '../../schemas/messages';
import { FrameRing } from '../../src/ring/frame-ring';
import { MemoryFrameStore } from '../../src/ring/memory-frame-store';
import { FrameSources, type FrameSourcePorts, type ScreencastPort } from '../../src/capture/frame-sources';
import type { Capturer } from '../../src/capture/ports';

// The frame sources as their tests use them: a fake browser around a real ring, on fake timers.

export const JPEG = new Uint8Array(readFileSync(new URL('../../test/fixtures/clip/baseline-64x36.jpeg', import.meta.url)));
export const JPEG_BASE64 = Buffer.from(JPEG).toString('base64');
export const OTHER_JPEG_BASE64 = readFileSync(new URL('../../test/fixtures/clip/odd-65x37.jpeg', import.meta.url)).toString('base64');
export const MASKED = new Uint8Array([0xff, 0xd8, 0xff, 0xd9]);
export const TAB = 7;
/** An observed action, with a frame right after it (`captureOnAction`). */
export const ACTION = { capture: true, action: true };

export const report = (rects: SensitiveRectsMessage['rects']): SensitiveRectsMessage => ({
  type: 'redaction/rects',
  ts: Date.now(),
  url: 'https://shop.test/checkout',
  viewport: { width: 64, height: 36 },
  device_pixel_ratio: 1,
  rects,
});

/** `visible`: whether TAB is the visible tab of its window (the captureVisibleTab loop sees it); `zoomOf`: the tabs' browser zoom, when known. */
export function setup(settings: Partial<Settings> = {}, visible = true, reportWaitMs = 0, syncRegions?: FrameSourcePorts['syncRegions'], zoomOf?: FrameSourcePorts['zoomOf']) {
  const clock = { now: () => Date.now() };
  const ring = new FrameRing(new MemoryFrameStore(), clock, { maxAgeMs: 15_000, maxBytes: 1 << 24 });
  const attached = new Set([TAB]);
  const capturer = {
    listTargets: vi.fn(async () => (visible ? [{ tabId: TAB, windowId: 1, url: 'https://shop.test/checkout' }] : [])),
    capture: vi.fn(async () => ({ jpeg: JPEG, width: 64, height: 36 })),
  } satisfies Capturer;
  const screencast = {
    attachedTabs: () => [...attached],
    start: vi.fn(async () => {}),
    stop: vi.fn(async () => {}),
    ack: vi.fn(async () => {}),
    screenshot: vi.fn(async () => JPEG_BASE64),
  } satisfies ScreencastPort;
  const maskFrame = vi.fn(async () => MASKED);
  const requestRegions = vi.fn();
  const current: Settings = { ...DEFAULT_SETTINGS, ...settings };
  const log = vi.fn();
  const sources = new FrameSources({
    clock,
    ring,
    capturer,
    screencast,
    maskFrame,
    requestRegions,
    debuggerState: (tabId) => ({ attached: attached.has(tabId) }),
    tabUrl: () => 'https://shop.test/checkout',
    log,
    // Masked at once but where the wait for later reports is tested.
    reportWaitMs,
    syncRegions,
    zoomOf,
  }, current);
  const frame = (sessionId: number, data = JPEG_BASE64) => sources.handleScreencastFrame(TAB, { sessionId, data });
  return { sources, ring, capturer, screencast, maskFrame, requestRegions, attached, current, log, frame };
}

/** Every test runs on fake timers: the capture loop, bursts and screenshots are timed. */
export function useFakeTimersEachTest(): void {
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 22, 12) });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

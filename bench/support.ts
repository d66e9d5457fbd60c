import type { Page } from 'playwright-core';
import { afr } from '../e2e/support/afr';
import { launchWithRecorder, type RecorderBrowser } from '../e2e/support/launch';

export const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** The q-quantile (0–1) of xs, interpolated between neighbours. */
export const quantile = (xs: readonly number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  return s[lo]! + (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!) * (at - lo);
};

export const fmt = (xs: number[], unit: string, digits = 0) =>
  `median ${median(xs).toFixed(digits)} ${unit} (min ${Math.min(...xs).toFixed(digits)}, max ${Math.max(...xs).toFixed(digits)}, n=${xs.length})`;

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const REPS = Number(process.env.BENCH_REPS ?? 3);

/** Chromium's flags without the extension: those `launchWithRecorder` gives it, less the extension's. */
export const PLAIN_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-gpu'];

/**
 * A Chromium with the recorder, configured (no downloads, no cooldown, no after-failure tail), on a
 * 1280×720 tab; `extensionDir`: another build than `.output/chrome-mv3` (to compare two builds).
 */
export async function withRecorder<T>(settings: Record<string, unknown>, fn: (b: RecorderBrowser, page: Page) => Promise<T>, extensionDir?: string): Promise<T> {
  const browser = await launchWithRecorder(extensionDir ? { extensionDir } : {});
  try {
    await afr(browser.worker, 'configure', { autoDownload: false, failureCooldownMs: 0, postFailureSeconds: 0, ...settings } as never);
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await page.setViewportSize({ width: 1280, height: 720 });
    return await fn(browser, page);
  } finally {
    await browser.close();
  }
}

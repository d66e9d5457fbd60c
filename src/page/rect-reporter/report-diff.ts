import type { SensitiveRectsMessage } from '../../../schemas/messages';

/** What a report sent said, as compared with the next one. */
export interface SentReport {
  /** Everything that matters: shape, rects and, with rects, the scroll position. */
  key: string;
  /** What it said besides its rects: URL, viewport, pixel ratio. */
  shape: string;
  /** Its rects, each as a string. */
  rects: ReadonlySet<string>;
  /** When it was sent (monotonic ms). */
  at: number;
}

/**
 * Whether a report goes: `now`, `later` (it only drops regions: it waits `inMs`, counted from
 * `since`, when the regions were first seen fewer), or `nothing` (unchanged, and no resend due).
 */
export type ReportDecision = { send: 'now'; sent: SentReport } | { send: 'later'; since: number; inMs: number } | { send: 'nothing' };

export interface ReportDiffContext {
  /** Sent even if unchanged, and at once if it drops regions (a milestone, the first paint, a forced refresh). */
  force: boolean;
  now: number;
  /** An unchanged report is sent again this long after the last one. */
  resendMs: number;
  /** A report that only drops regions waits this long (see `RectReporterOptions.fewerDelayMs`). */
  fewerDelayMs: number;
  /** Since when the regions are fewer than last sent (a report already waiting), or null. */
  fewerSince: number | null;
}

type ReportFields = Pick<SensitiveRectsMessage, 'url' | 'viewport' | 'device_pixel_ratio' | 'rects' | 'scroll' | 'visual_viewport'>;

/**
 * Decides whether `report` goes, given the last report sent (`last`, null before the first). A
 * report that adds or moves a region goes at once, and carries the drops with it; one that only
 * drops regions waits until `fewerDelayMs` after they were first seen fewer, so frames are meanwhile
 * masked over more than needed, never less.
 */
export function decideReport(last: SentReport | null, report: ReportFields, ctx: ReportDiffContext): ReportDecision {
  const { url, viewport, device_pixel_ratio: dpr, rects, scroll, visual_viewport: vv } = report;
  // A pinch zoom or a visual viewport moved changes where the rects land in a frame: a new shape.
  const shape = JSON.stringify([url, viewport.width, viewport.height, dpr, vv ? [vv.width, vv.height, vv.offset_x, vv.offset_y, vv.scale] : null]);
  const rectKeys = rects.map((r) => `${r.x},${r.y},${r.width},${r.height}`);
  // With regions, where the page is scrolled to matters too: the worker places them by it.
  const key = `${shape}${rectKeys.join(';')}${rectKeys.length ? `@${scroll?.x ?? 0},${scroll?.y ?? 0}` : ''}`;
  if (last && key === last.key && !ctx.force && ctx.now - last.at < ctx.resendMs) return { send: 'nothing' };
  const fewer = last !== null && shape === last.shape && new Set(rectKeys).size < last.rects.size && rectKeys.every((k) => last.rects.has(k));
  if (!ctx.force && fewer) {
    const since = ctx.fewerSince ?? ctx.now;
    const inMs = since + ctx.fewerDelayMs - ctx.now;
    if (inMs > 0) return { send: 'later', since, inMs };
  }
  return { send: 'now', sent: { key, shape, rects: new Set(rectKeys), at: ctx.now } };
}

import type { SensitiveRectsMessage } from '../../schemas/messages';
import { union, type ViewportRect } from '../redact/viewport-rect';

/** A rectangle of a frame image: image pixels, integers, inside the image. */
export interface ImageRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * What a screencast frame says it shows (its metadata): the size of the part of the viewport in the
 * image, and where the top document was scrolled to in it, both in DIPs (CSS px at 100 % zoom).
 */
export interface FrameShown {
  width: number;
  height: number;
  scroll?: { x: number; y: number };
}

/** Margin around each region, in CSS px (scaled to image px): covers anti-aliasing and a glyph cut at the edge. */
export const MASK_PADDING_CSS_PX = 4;

/**
 * How far (in CSS px, each way) the image may be from the reported viewport's shape and still be
 * the same viewport: `innerWidth` is rounded to a CSS px, the image to a device px.
 */
const SHAPE_TOLERANCE_CSS_PX = 2;

/**
 * A frame's picture may show the page as it was this long before the time it is taken at: the
 * compositor frame it copies, and a change reported (before it is painted) not on screen yet.
 */
export const FRAME_LATENCY_MS = 150;
/** Reports replaced this recently are kept: a frame taken while one was in force may be masked later. */
const HISTORY_MS = 3_000;

/**
 * The sensitive regions each tab's top document reported (`redaction/rects`), turned into the rects
 * to paint over in a frame of that tab. A frame is masked with the report in force when its picture
 * was taken and with every report since: a frame waits (in the screencast's throttle, for a capture
 * to return, for the page's answer) while the page scrolls or a field moves, and the newest report
 * alone would mask where the field is now, not where the frame shows it. A region that moved from
 * one report to the next (by its id) is also masked everywhere between: the frame may show it
 * anywhere on the way. A tab with no report for its current document is unknown: its frames must be
 * dropped, never stored unmasked.
 * @example
 * const plan = regions.plan(tabId, 1280, 720, undefined, takenAt);
 * if (plan === null) return null; // drop the frame
 * return plan.length ? maskJpeg(jpeg, plan, quality) : jpeg;
 */
export class SensitiveRegions {
  /** Each tab's reports of its current document, oldest first, with the time each arrived. */
  private readonly reports = new Map<number, { report: SensitiveRectsMessage; at: number }[]>();
  private readonly lastShown = new Map<number, { width: number; height: number }>();
  private masked = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** A new report of a tab: in force from now on (the ones it replaces still apply to older frames). */
  update(tabId: number, report: SensitiveRectsMessage): void {
    const at = this.now();
    const reports = this.reports.get(tabId) ?? [];
    reports.push({ report, at });
    // The first kept is the one in force `HISTORY_MS` ago.
    while (reports.length > 1 && reports[1]!.at <= at - HISTORY_MS) reports.shift();
    this.reports.set(tabId, reports);
  }

  /**
   * What the tab's screencast frames show (CSS px). When it changes (the window was resized, or the
   * "started debugging" bar appeared), the report describes the old window: it is forgotten, so the
   * tab's frames are dropped until the next report. So it is at the tab's first frame, which has
   * nothing to be compared with: a report made before it may describe the window before the bar
   * appeared. Returns true when a report was forgotten (the caller asks the page for a new one).
   */
  noteShown(tabId: number, shown: { width: number; height: number }): boolean {
    const previous = this.lastShown.get(tabId);
    this.lastShown.set(tabId, shown);
    if (previous && Math.abs(previous.width - shown.width) < 1 && Math.abs(previous.height - shown.height) < 1) return false;
    return this.reports.delete(tabId);
  }

  /**
   * The tab's reports as they stand: the same token until they are forgotten (a navigation, a
   * resized window, the tab closed); undefined while none are known. A report asked for under
   * another token may describe a document or window no longer shown.
   */
  generation(tabId: number): object | undefined {
    return this.reports.get(tabId);
  }

  /** The tab's screencast session ended: the next one's first frame has nothing to be compared with. */
  forgetShown(tabId: number): void {
    this.lastShown.delete(tabId);
  }

  /** Every tab's regions are unknown until it reports again (its pages stop or stopped reporting); returns the tabs that had a report. */
  resetAll(): number[] {
    const tabs = [...this.reports.keys()];
    this.reports.clear();
    return tabs;
  }

  /** The tab navigated: its regions are unknown until its new document reports. True when it had a report. */
  reset(tabId: number): boolean {
    return this.reports.delete(tabId);
  }

  forget(tabId: number): void {
    this.reports.delete(tabId);
    this.lastShown.delete(tabId);
  }

  /** Whether the tab's current document has reported its regions (kept since). */
  known(tabId: number): boolean {
    return (this.reports.get(tabId)?.length ?? 0) > 0;
  }

  /** Whether a picture taken at `takenAt` is older than every report of the tab kept (one came since). */
  predatesReports(tabId: number, takenAt: number): boolean {
    const first = this.reports.get(tabId)?.[0];
    return first !== undefined && first.at > takenAt;
  }

  /** Total rects masked so far (for diagnostics), incremented by `plan` calls that return rects. */
  get maskedRegions(): number {
    return this.masked;
  }

  /**
   * Image-pixel rects to mask in a frame of this tab (scaled from the report's viewport to the image
   * size, padded by a few px, clipped), [] when the page has nothing sensitive, or null when unknown
   * (the frame must be dropped). Two shapes of image are understood: the whole viewport at any
   * uniform scale (`captureVisibleTab`: CSS size × device pixel ratio; a downscaled screencast), and
   * the top of the viewport at device pixels (a screencast of a window smaller than the emulated
   * viewport: 1280×577 frames of a 1280×720 viewport). `shown`, the CSS size of what the image shows
   * when the source says it (a screencast frame's `deviceWidth`×`deviceHeight`), also places a
   * downscaled top part. Any other shape means the report describes another viewport (the window was
   * resized since): its rects would land elsewhere, so null. `takenAt`: when the picture was taken
   * (the clock of `now`); the reports since then apply too. Without it, the latest report alone.
   */
  plan(tabId: number, imageWidth: number, imageHeight: number, shown?: FrameShown, takenAt?: number): ImageRect[] | null {
    const reports = this.reports.get(tabId);
    if (!reports?.length || !(imageWidth > 0 && imageHeight > 0)) return null;
    let from = reports.length - 1;
    if (takenAt !== undefined) {
      // A picture taken before the document's first report may show the page before it (a
      // navigation): unknown. Else the report in force when it may have been taken, and every one since.
      if (this.predatesReports(tabId, takenAt)) return null;
      while (from > 0 && reports[from]!.at > takenAt - FRAME_LATENCY_MS) from--;
    }
    const rects: ImageRect[] = [];
    const seen = new Set<string>();
    const push = (planned: readonly ImageRect[]) => {
      for (const r of planned) {
        const key = `${r.x},${r.y},${r.width},${r.height}`;
        if (seen.has(key)) continue;
        seen.add(key);
        rects.push(r);
      }
    };
    // The reports that describe this picture (not another viewport: the window was resized in
    // between), in the order the page measured them.
    const placed: { report: SensitiveRectsMessage; fit: Fit; layers: Layers }[] = [];
    for (const { report } of reports.slice(from)) {
      const fit = fitOf(report, imageWidth, imageHeight, shown);
      if (fit) placed.push({ report, fit, layers: layersOf(report, shown) });
    }
    if (!placed.length) return null;
    placed.sort((a, b) => a.report.ts - b.report.ts);
    for (const [i, { report, fit, layers }] of placed.entries()) {
      push(toImage(layers.own, fit));
      if (layers.placed !== layers.own) push(toImage(layers.placed, fit));
      // A region that moved between two reports (an inner scroller, an animation) may be anywhere
      // between the two places in this picture: the box covering both.
      const before = placed[i - 1];
      if (!before || before.report.viewport.width !== report.viewport.width || before.report.viewport.height !== report.viewport.height) continue;
      push(toImage(sweep(before.layers.own, layers.own), fit));
      if (layers.placed !== layers.own || before.layers.placed !== before.layers.own) push(toImage(sweep(before.layers.placed, layers.placed), fit));
    }
    this.masked += rects.length;
    return rects;
  }
}

/** How a report's CSS px map onto an image: scale each way and the mask padding (image px). */
interface Fit {
  sx: number;
  sy: number;
  padX: number;
  padY: number;
  width: number;
  height: number;
}

/**
 * A report's rects where a frame shows them (CSS px of the report's viewport): `own`, as reported (a
 * fixed element stays put), and `placed`, moved by the scroll the frame says it shows when the
 * compositor scrolled it elsewhere than when the page measured (the same array when it did not).
 */
interface Layers {
  own: readonly ViewportRect[];
  placed: readonly ViewportRect[];
}

/** How the report's viewport maps onto the image, or null when the image is not of that viewport (see `plan`). */
function fitOf(report: SensitiveRectsMessage, imageWidth: number, imageHeight: number, shown?: FrameShown): Fit | null {
  const { width: vw, height: vh } = report.viewport;
  const dpr = report.device_pixel_ratio;
  const sx = imageWidth / vw;
  const whole = Math.abs(imageHeight - vh * sx) <= SHAPE_TOLERANCE_CSS_PX * sx + 1;
  const shownTop =
    shown !== undefined &&
    Math.abs(shown.width - vw) <= SHAPE_TOLERANCE_CSS_PX &&
    shown.height < vh &&
    Math.abs(imageHeight - shown.height * sx) <= SHAPE_TOLERANCE_CSS_PX * sx + 1;
  const top = shownTop || (imageHeight < vh * sx && Math.abs(imageWidth - vw * dpr) <= SHAPE_TOLERANCE_CSS_PX * dpr + 1);
  if (!whole && !top) return null;
  // The whole viewport may be scaled a hair differently each way (rounding); a top part is not scaled.
  const sy = whole ? imageHeight / vh : sx;
  return { sx, sy, padX: Math.ceil(MASK_PADDING_CSS_PX * sx), padY: Math.ceil(MASK_PADDING_CSS_PX * sy), width: imageWidth, height: imageHeight };
}

function layersOf(report: SensitiveRectsMessage, shown?: FrameShown): Layers {
  // The frame's scroll is in DIPs (the size it says it shows is too), the report's in CSS px: they
  // differ by the page's zoom. (The protocol's documentation says CSS px; Chromium divides the scroll
  // by the device scale factor, which includes the zoom.)
  const vw = report.viewport.width;
  const k = shown && shown.width > 0 ? vw / shown.width : 1;
  const dx = shown?.scroll && report.scroll ? report.scroll.x - shown.scroll.x * k : 0;
  const dy = shown?.scroll && report.scroll ? report.scroll.y - shown.scroll.y * k : 0;
  const own = report.rects;
  return { own, placed: dx || dy ? own.map((r) => ({ ...r, x: r.x + dx, y: r.y + dy })) : own };
}

/** The box covering each region (by id) in both `a` and `b`, where it moved from one to the other. */
function sweep(a: readonly ViewportRect[], b: readonly ViewportRect[]): ViewportRect[] {
  /** Each id's rects (several for a text's lines) as one box. */
  const boxesOf = (rects: readonly ViewportRect[]) => {
    const boxes = new Map<number, ViewportRect>();
    for (const r of rects) {
      if (r.id === undefined || !(r.width > 0 && r.height > 0)) continue;
      const box = boxes.get(r.id);
      boxes.set(r.id, box ? union(box, r) : r);
    }
    return boxes;
  };
  const from = boxesOf(a);
  const out: ViewportRect[] = [];
  for (const [id, to] of boxesOf(b)) {
    const was = from.get(id);
    if (!was || (was.x === to.x && was.y === to.y && was.width === to.width && was.height === to.height)) continue;
    out.push({ ...union(was, to), id });
  }
  return out;
}

/** CSS rects scaled to image px, padded, clipped to the image; empty ones left out. */
function toImage(cssRects: readonly ViewportRect[], fit: Fit): ImageRect[] {
  const rects: ImageRect[] = [];
  for (const r of cssRects) {
    if (!(r.width > 0 && r.height > 0)) continue;
    const left = Math.max(0, Math.floor(r.x * fit.sx) - fit.padX);
    const top = Math.max(0, Math.floor(r.y * fit.sy) - fit.padY);
    const right = Math.min(fit.width, Math.ceil((r.x + r.width) * fit.sx) + fit.padX);
    const bottom = Math.min(fit.height, Math.ceil((r.y + r.height) * fit.sy) + fit.padY);
    if (right > left && bottom > top) rects.push({ x: left, y: top, width: right - left, height: bottom - top });
  }
  return rects;
}

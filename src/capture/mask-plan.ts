import type { DropReason } from '../../schemas/drop-reasons';
import type { SensitiveRectsMessage } from '../../schemas/messages';
import { hasSurfaceShape } from './surface-shape';
import { union, type ViewportRect } from '../redact/viewport-rect';

/** A rectangle of a frame image: image pixels, integers, inside the image. */
export interface ImageRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * What a frame says it shows: the size of the tab's surface (the window's content area) in DIPs —
 * a screencast frame's `deviceWidth`×`deviceHeight`, or the tab's size for `captureVisibleTab` —,
 * where the top document was scrolled to in it (DIPs), and the page scale it was drawn at (a
 * screencast frame's `pageScaleFactor`).
 */
export interface FrameShown {
  width: number;
  height: number;
  scroll?: { x: number; y: number };
  pageScale?: number;
}


/** Margin around each region, in CSS px (scaled to image px): covers anti-aliasing and a glyph cut at the edge. */
export const MASK_PADDING_CSS_PX = 4;
/** The margin is never thinner than this many image px, however far the page is scaled down (a mobile page zoomed out). */
export const MIN_MASK_PADDING_PX = 2;
/** How far a frame's page scale may be from the report's visual viewport scale and still be the same zoom. */
const PAGE_SCALE_TOLERANCE = 0.01;

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
  private readonly reports = new Map<number, { report: SensitiveRectsMessage; at: number; surface?: Size }[]>();
  private readonly lastShown = new Map<number, Size>();
  private masked = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** A new report of a tab: in force from now on (the ones it replaces still apply to older frames). */
  update(tabId: number, report: SensitiveRectsMessage): void {
    const at = this.now();
    const reports = this.reports.get(tabId) ?? [];
    // The surface the tab's frames showed when it came: a frame of another one shows another layout.
    const surface = this.lastShown.get(tabId);
    reports.push({ report, at, ...(surface ? { surface: { width: surface.width, height: surface.height } } : {}) });
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
  noteShown(tabId: number, shown: Size, { firstForgets = true }: { firstForgets?: boolean } = {}): boolean {
    const previous = this.lastShown.get(tabId);
    this.lastShown.set(tabId, { width: shown.width, height: shown.height });
    if (previous ? sameSize(previous, shown) : !firstForgets) return false;
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

  /**
   * The tab's report in force at `at` (the last that came by then, else the oldest kept): what the
   * page measured of the viewport a picture taken then shows. Undefined while none is known.
   */
  reportAt(tabId: number, at: number): SensitiveRectsMessage | undefined {
    const reports = this.reports.get(tabId);
    if (!reports?.length) return undefined;
    let i = reports.length - 1;
    while (i > 0 && reports[i]!.at > at) i--;
    return reports[i]!.report;
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
  plan(tabId: number, imageWidth: number, imageHeight: number, shown?: FrameShown, takenAt?: number, zoom?: number): ImageRect[] | null {
    const planned = this.planOrDrop(tabId, imageWidth, imageHeight, shown, takenAt, zoom);
    return 'drop' in planned ? null : planned.rects;
  }

  /** The tab's last surface seen (see `noteShown`): a frame that does not say its own (a CDP screenshot) is of it, if its shape agrees. */
  shownOf(tabId: number): Size | undefined {
    return this.lastShown.get(tabId);
  }

  /**
   * As `plan`, with the reason when the frame must be dropped. `zoom`: the tab's browser zoom, when
   * known: with the surface the frame shows (`shown`), it places the rects whatever viewport the
   * driver emulates (see the measurements at `fitOf`).
   */
  planOrDrop(tabId: number, imageWidth: number, imageHeight: number, shown?: FrameShown, takenAt?: number, zoom?: number): { rects: ImageRect[] } | { drop: DropReason } {
    const reports = this.reports.get(tabId);
    if (!reports?.length) return { drop: 'no-report' };
    if (!(imageWidth > 0 && imageHeight > 0)) return { drop: 'viewport-mismatch' };
    let from = reports.length - 1;
    if (takenAt !== undefined) {
      // A picture taken before the document's first report may show the page before it (a
      // navigation): unknown. Else the report in force when it may have been taken, and every one since.
      if (this.predatesReports(tabId, takenAt)) return { drop: 'stale-report' };
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
    for (const { report, surface } of reports.slice(from)) {
      const fit = fitOf(report, imageWidth, imageHeight, shown, zoom, surface);
      if (fit) placed.push({ report, fit, layers: layersOf(report, shown, fit) });
    }
    if (!placed.length) return { drop: 'viewport-mismatch' };
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
    return { rects };
  }
}

/**
 * How a report's CSS px map onto an image: image px = (CSS px − offset) × scale, each way, then the
 * mask padding (image px). `cssPerDip`: CSS px per DIP of the frame's scroll offset, when the
 * surface mapping knows it (the browser zoom).
 */
interface Fit {
  sx: number;
  sy: number;
  ox: number;
  oy: number;
  padX: number;
  padY: number;
  width: number;
  height: number;
  cssPerDip?: number;
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

/**
 * How the report's viewport maps onto the image, or null when the image is not of that viewport (see `plan`).
 *
 * Measured on Chromium 156 headless (window 780×580, content 780×437 DIPs with the "started
 * debugging" bar), the page's own reports against what each capture path of the extension gives:
 *
 * | driver emulates                | innerW×H  | dpr | visualViewport.scale | image (visibleTab = CDP screenshot = screencast) | screencast deviceW×H, pageScaleFactor | field at CSS (100,150) in image |
 * | ------------------------------ | --------- | --- | -------------------- | ------------------------------------------------ | ------------------------------------- | ------------------------------- |
 * | nothing (`defaultViewport: null`) | 780×437 | 1   | 1                    | 780×437                                          | 780×437, 1                            | (100,150)                       |
 * | Puppeteer default 800×600      | 800×600   | 1   | 1                    | 780×437: the viewport's top left, cropped        | 780×437, 1                            | (100,150)                       |
 * | 1600×1200                      | 1600×1200 | 1   | 1                    | 780×437, cropped                                 | 780×437, 1                            | (100,150)                       |
 * | 800×600, deviceScaleFactor 2   | 800×600   | 2   | 1                    | 780×437 (not 2×: the window is drawn at its own scale) | 780×437, 1                      | (100,150)                       |
 * | mobile 390×844 ×2 (980 px wide page) | 980×2121 | 2 | 0.398              | 780×437: the 390 DIP screen at top left, blank right of it | 780×437, 0.398              | (40,60)                         |
 * | 800×600 + browser zoom 150 %   | 533×400   | 1.5 | 1                    | 780×437, cropped                                 | 780×437, 1                            | (150,225)                       |
 * | nothing, zoom 150 %            | 520×291   | 1.5 | 1                    | 780×437: the whole viewport                      | 780×437, 1                            | (150,225)                       |
 * | Puppeteer default, --force-device-scale-factor=2 | 800×600 | 1 | 1      | 1000×274 (window 500×137 DIPs)                   | 500×137, 1                            | (200,300)                       |
 * | window resized to 1000×700     | 1000×557  | 1   | 1                    | 1000×557                                         | 1000×557, 1                           | (100,150)                       |
 *
 * The emulation is the driver's session's own: the extension's debugger session, and
 * `captureVisibleTab`, see the window's surface (the tab's size, `chrome.tabs` `width`×`height`, in
 * DIPs), where the emulated view is drawn from the top left at one DIP per emulated DIP: image px =
 * (CSS px − visual viewport offset) × visualViewport.scale × browser zoom × (image px per surface
 * DIP). The page's `devicePixelRatio` (emulated scale × zoom) says nothing about the image. So when
 * the frame says its surface and the zoom is known, that is the mapping, whatever the viewport's
 * shape (a crop, or blank beyond it); a screencast frame's page scale must be the report's. Without
 * them, the two shapes understood before: the whole viewport at a uniform scale, or its top at
 * device pixels.
 */
function fitOf(report: SensitiveRectsMessage, imageWidth: number, imageHeight: number, shown?: FrameShown, zoom?: number, reportSurface?: Size): Fit | null {
  if (shown && zoom !== undefined) return surfaceFit(report, imageWidth, imageHeight, shown, zoom, reportSurface);
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
  return { sx, sy, ox: 0, oy: 0, padX: padding(sx), padY: padding(sy), width: imageWidth, height: imageHeight };
}

/** The mask margin in image px at `scale` image px per CSS px. */
function padding(scale: number): number {
  return Math.max(MIN_MASK_PADDING_PX, Math.ceil(MASK_PADDING_CSS_PX * scale));
}

/**
 * The mapping through the frame's surface (see `fitOf`), or null when the image or its page scale
 * disagree with it, or the report may describe another layout: it came while the tab showed another
 * surface (the window was resized: the page laid out again), or before any frame of the tab said its
 * surface and its viewport is not that surface (emulated, or laid out for the window before the
 * "started debugging" bar: it cannot be told).
 */
function surfaceFit(report: SensitiveRectsMessage, imageWidth: number, imageHeight: number, shown: FrameShown, zoom: number, reportSurface?: Size): Fit | null {
  if (!(shown.width > 0 && shown.height > 0 && zoom > 0)) return null;
  if (reportSurface ? !sameSize(reportSurface, shown) : !viewIsSurface(report, shown, zoom)) return null;
  // Image px per surface DIP: the device scale factor, or less for a screencast scaled down to fit.
  const perDip = imageWidth / shown.width;
  if (!hasSurfaceShape({ width: imageWidth, height: imageHeight }, shown)) return null;
  const vv = report.visual_viewport;
  const scale = vv?.scale ?? 1;
  // A frame drawn at another page scale (a pinch zoom since) is not what the report measured.
  if (shown.pageScale !== undefined && Math.abs(shown.pageScale - scale) > PAGE_SCALE_TOLERANCE * scale) return null;
  const k = perDip * scale * zoom;
  return { sx: k, sy: k, ox: vv?.offset_x ?? 0, oy: vv?.offset_y ?? 0, padX: padding(k), padY: padding(k), width: imageWidth, height: imageHeight, cssPerDip: 1 / zoom };
}

/** Whether the report's visual viewport, in DIPs, fills the surface (nothing emulated). */
function viewIsSurface(report: SensitiveRectsMessage, shown: Size, zoom: number): boolean {
  const vv = report.visual_viewport ?? { ...report.viewport, scale: 1 };
  const k = vv.scale * zoom;
  return Math.abs(vv.width * k - shown.width) <= SHAPE_TOLERANCE_CSS_PX * k && Math.abs(vv.height * k - shown.height) <= SHAPE_TOLERANCE_CSS_PX * k;
}

interface Size {
  width: number;
  height: number;
}

function sameSize(a: Size, b: Size): boolean {
  return Math.abs(a.width - b.width) < 1 && Math.abs(a.height - b.height) < 1;
}

function layersOf(report: SensitiveRectsMessage, shown: FrameShown | undefined, fit: Fit): Layers {
  // The frame's scroll is in DIPs (the size it says it shows is too), the report's in CSS px: they
  // differ by the page's zoom. (The protocol's documentation says CSS px; Chromium divides the scroll
  // by the device scale factor, which includes the zoom.) Without the zoom known, the ratio of the
  // viewport to the surface stands in for it (they are one when nothing is emulated).
  const vw = report.viewport.width;
  const k = fit.cssPerDip ?? (shown && shown.width > 0 ? vw / shown.width : 1);
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
    const left = Math.max(0, Math.floor((r.x - fit.ox) * fit.sx) - fit.padX);
    const top = Math.max(0, Math.floor((r.y - fit.oy) * fit.sy) - fit.padY);
    const right = Math.min(fit.width, Math.ceil((r.x - fit.ox + r.width) * fit.sx) + fit.padX);
    const bottom = Math.min(fit.height, Math.ceil((r.y - fit.oy + r.height) * fit.sy) + fit.padY);
    if (right > left && bottom > top) rects.push({ x: left, y: top, width: right - left, height: bottom - top });
  }
  return rects;
}

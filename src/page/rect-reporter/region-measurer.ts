import type { SensitiveRectsMessage } from '../../../schemas/messages';
import type { TextMasker } from '../../redact/mask-text';
import { redactUrl } from '../../redact/redact-url';
import { createSensitiveRectCollector } from '../../redact/sensitive-rects';
import type { CollectCost } from './collect-cost';
import type { FocusAtMeasure } from './focus-at-measure';
import type { Guard } from './guard';
import { RECT_REPORTER_DEFAULTS, type RectReporterOptions } from './options';

/**
 * The reports also give the regions this far outside the viewport each way: the compositor scrolls
 * the page (a wheel, a fling) ahead of the page, and a frame may show a field the page has not
 * reported in view yet; the worker places the rects by the scroll position the frame says it shows.
 */
export const REPORT_MARGIN_CSS_PX = 1_000;

/** Measures the regions: walking the page, or measuring again what the last walk found. */
export interface RegionMeasurer {
  /** The report of the regions now, or null when the viewport has no size yet. */
  measure(): SensitiveRectsMessage | null;
  /** The DOM may have changed (a mutation, a milestone, a refresh): the next measurement walks the page. */
  invalidate(): void;
  /** The next measurement will measure again, and the last attempt to did (for pacing by its cost). */
  nextRemeasures(): boolean;
  /** Cancels the walk `walkMaxAgeMs` would ask for. */
  stop(): void;
}

/** What the measurer needs from the reporter's other parts. */
export interface RegionMeasurerParts {
  now: () => number;
  guarded: Guard;
  costs: CollectCost;
  focus: FocusAtMeasure;
  /** Told about every document and shadow root a walk meets. */
  onRoot: (root: Document | ShadowRoot) => void;
  /** Takes the DOM mutations not yet delivered (made in this task): true if there were any. */
  takeMutations: () => boolean;
  /** The masker of the settings in force: what counts as sensitive text, and the URL's redaction. */
  masker: () => TextMasker;
  /** Asks for a report in `ms` (running `first` before it). */
  reportIn: (ms: number, first: () => void) => ReturnType<typeof setTimeout>;
}

/**
 * Measures the regions of `win`'s document. The page is walked after a DOM change (`invalidate`), or
 * when the last walk is `walkMaxAgeMs` old; otherwise (focus moved, a value typed, scrolling) what
 * the last walk found is measured again, every form field examined again, which gives the same rects
 * for a fraction of the cost. Each measurement's cost is counted in `costs`.
 */
export function createRegionMeasurer(
  win: Window,
  opts: Pick<RectReporterOptions, 'collect' | 'remeasure' | 'walkMaxAgeMs'>,
  parts: RegionMeasurerParts,
): RegionMeasurer {
  const { now, guarded, costs } = parts;
  const walkMaxAgeMs = opts.walkMaxAgeMs ?? RECT_REPORTER_DEFAULTS.walkMaxAgeMs;
  const collector = opts.collect ? null : createSensitiveRectCollector(parts.masker, undefined, REPORT_MARGIN_CSS_PX);
  const collect = opts.collect ?? ((doc, onRoot) => collector!.collect(doc, { onRoot }));
  const remeasure = opts.remeasure ?? ((doc) => collector?.remeasure(doc) ?? null);
  /** The last attempt to measure again gave rects (else it walked: an iframe met, or nothing to measure again with). */
  let remeasured = opts.remeasure !== undefined || !opts.collect;
  /** The DOM may have changed since the last collection: collect, do not remeasure. */
  let domChanged = true;
  let lastCollect = -Infinity;
  /** Walks the page once the last walk is `walkMaxAgeMs` old (set after a report measured again). */
  let walkTimer: ReturnType<typeof setTimeout> | null = null;
  let href = '';
  let urlMasker: TextMasker | null = null;
  let url = '';

  /** What the last walk found was measured again: the page is walked again once that walk is `walkMaxAgeMs` old. */
  const walkLater = () => {
    walkTimer ??= parts.reportIn(Math.max(0, lastCollect + walkMaxAgeMs - now()), () => {
      walkTimer = null;
      domChanged = true;
    });
  };
  const cancelWalk = () => {
    if (walkTimer !== null) clearTimeout(walkTimer);
    walkTimer = null;
  };
  /**
   * The next measurement measures again what the last walk found (no DOM change since, and that walk
   * is recent). Mutations not yet delivered to the observer (made in this task) count as changes.
   */
  const willRemeasure = () => {
    if (parts.takeMutations()) domChanged = true;
    return !domChanged && now() - lastCollect < walkMaxAgeMs;
  };

  const measure = (): SensitiveRectsMessage | null => {
    let out: SensitiveRectsMessage | null = null;
    costs.track(() => {
      let walked = false;
      guarded('reporting sensitive regions', () => {
        const width = win.innerWidth;
        const height = win.innerHeight;
        if (!(width > 0 && height > 0)) return; // not laid out yet: the next event or poll reports
        const tried = willRemeasure();
        let rects = tried ? remeasure(win.document) : null;
        if (tried) remeasured = rects !== null;
        walked = !rects;
        if (rects) walkLater();
        else {
          cancelWalk();
          domChanged = false;
          lastCollect = now();
          rects = collect(win.document, parts.onRoot);
        }
        parts.focus.note(win.document);
        if (win.location.href !== href || parts.masker() !== urlMasker) {
          href = win.location.href;
          urlMasker = parts.masker();
          url = redactUrl(href, urlMasker);
        }
        const dpr = win.devicePixelRatio > 0 ? win.devicePixelRatio : 1;
        const vv = win.visualViewport;
        // Absent (an old engine, or not laid out): the worker maps the rects as the whole viewport only.
        const visual =
          vv && vv.width > 0 && vv.height > 0 && vv.scale > 0
            ? { visual_viewport: { width: vv.width, height: vv.height, offset_x: vv.offsetLeft, offset_y: vv.offsetTop, scale: vv.scale } }
            : {};
        out = { type: 'redaction/rects', ts: Date.now(), url, viewport: { width, height }, device_pixel_ratio: dpr, rects, scroll: { x: win.scrollX, y: win.scrollY }, ...visual };
      });
      return walked;
    });
    return out;
  };

  return {
    measure,
    invalidate: () => {
      domChanged = true;
    },
    nextRemeasures: () => willRemeasure() && remeasured,
    stop: cancelWalk,
  };
}

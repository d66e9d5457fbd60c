import type { ViewportRect } from '../../redact/sensitive-rects';
import type { WhenPainted } from './first-paint';

/** How the sensitive region reporter measures and paces; every field has a default. */
export interface RectReporterOptions {
  /** Where the sensitive regions are now; told about every document and shadow root it walks. */
  collect?: (doc: Document, onRoot: (root: Document | ShadowRoot) => void) => ViewportRect[];
  /**
   * The regions of what the last `collect` found, measured again (null: collect instead). Used while
   * no DOM mutation was seen since that collection and it is younger than `walkMaxAgeMs`: after a
   * focus change, a value typed, scrolling. Default: none with a custom `collect`.
   */
  remeasure?: (doc: Document) => ViewportRect[] | null;
  /**
   * A collection older than this is not measured again but repeated, and after a report measured
   * again the page is walked once it is this old: bounds how long a change no mutation shows (an
   * open shadow root attached to an element already there, a custom element upgraded) goes unseen.
   */
  walkMaxAgeMs?: number;
  /**
   * A report that only drops regions (the focus left a plain field) waits this long: until then
   * frames are masked over more than needed, never less, and a script hopping from field to field
   * sends one report per field that adds a region instead of two. A report that adds or moves one
   * goes at once, and carries the drops with it.
   */
  fewerDelayMs?: number;
  /** A monotonic clock in ms for pacing (`performance.now`); the message's `ts` is `Date.now()`. */
  now?: () => number;
  /** After this long without a report, a change of layout (scrolling, resizing) is reported at once (leading edge). */
  quietMs?: number;
  /**
   * A change of content (a value, focus, DOM mutations) is reported at the end of the task that made it,
   * while the time recently spent collecting (halving every 100 ms) stays under this: such a report
   * reaches the background before the change is painted, one sent with the next animation frame may
   * reach it after the frame. Past the budget (a page changing its DOM without pause), changes wait
   * for the next animation frame.
   */
  contentBudgetMs?: number;
  /** Layout also moves without an event (web fonts, CSS, lazy content): look again this often while visible. 0: never. */
  pollMs?: number;
  /**
   * An unchanged report is sent again after this long (checked when polling): a restarted service
   * worker has forgotten the regions and would drop every frame of a page that never changes.
   */
  resendMs?: number;
  /**
   * Calls `onPainted` once the document has painted, unless it has already (then returns null);
   * returns a function that stops waiting. Until then the screen shows the page this document
   * replaced, so nothing is reported, and the worker drops the tab's frames. Default: a `paint`
   * performance entry, at most `FIRST_PAINT_WAIT_MS` later; a hidden document counts as painted.
   */
  whenPainted?: WhenPainted;
  warn?: (message: string) => void;
}

/** The defaults of `RectReporterOptions` (ms). */
export const RECT_REPORTER_DEFAULTS = { quietMs: 100, contentBudgetMs: 8, pollMs: 1000, resendMs: 3000, walkMaxAgeMs: 250, fewerDelayMs: 300 } as const;

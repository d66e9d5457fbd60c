import type { SensitiveRectsMessage } from '../../schemas/messages';
import { redactUrl } from '../redact/redact-url';
import { createSensitiveRectCollector, isFocusedTypedField, type ViewportRect } from '../redact/sensitive-rects';
import { errorMessage } from '../shared/error-message';

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
  whenPainted?: (onPainted: () => void) => (() => void) | null;
  warn?: (message: string) => void;
}

/**
 * Stops the reporter; `refresh()` reports again now (e.g. the redaction rules changed), if the report
 * changed or `force` (e.g. the background may have missed the last one).
 */
export interface RectReporter {
  (): void;
  refresh(force?: boolean): void;
  /**
   * Measures the regions at the second animation frame from now (it has the compositor's scrolls
   * up to now; at once in a hidden document; later when measuring is slow) and gives that report to
   * `answer`, changed or not. It is not emitted, and the reports go on as if it had not been made.
   * Null when there is none (the document has not painted, is not laid out, or the reporter stopped).
   */
  sync(answer: (report: SensitiveRectsMessage | null) => void): void;
}

/**
 * The reports also give the regions this far outside the viewport each way: the compositor scrolls
 * the page (a wheel, a fling) ahead of the page, and a frame may show a field the page has not
 * reported in view yet; the worker places the rects by the scroll position the frame says it shows.
 */
export const REPORT_MARGIN_CSS_PX = 1_000;

export const RECT_REPORTER_DEFAULTS = { quietMs: 100, contentBudgetMs: 8, pollMs: 1000, resendMs: 3000, walkMaxAgeMs: 250, fewerDelayMs: 300 } as const;
/**
 * A document that shows no paint entry this long after the reporter started reports anyway (one
 * that paints nothing but its background never gets one).
 */
export const FIRST_PAINT_WAIT_MS = 3_000;

/**
 * The default `whenPainted`: the document's first `paint` performance entry (the first frame it put
 * on screen; Chrome keeps showing the previous page until then, "paint holding").
 */
function whenFirstPainted(win: Window, onPainted: () => void): (() => void) | null {
  const perf = win.performance as Performance | undefined;
  const Observer = (win as Window & typeof globalThis).PerformanceObserver as typeof PerformanceObserver | undefined;
  if (win.document.hidden || typeof perf?.getEntriesByType !== 'function' || typeof Observer !== 'function') return null;
  if (perf.getEntriesByType('paint').length > 0) return null;
  let waiting = true;
  const observer = new Observer(() => done(true));
  const timer = setTimeout(() => done(true), FIRST_PAINT_WAIT_MS);
  const done = (painted: boolean) => {
    if (!waiting) return;
    waiting = false;
    clearTimeout(timer);
    observer.disconnect();
    if (painted) onPainted();
  };
  try {
    observer.observe({ type: 'paint', buffered: true });
  } catch {
    done(false);
    return null;
  }
  return () => done(false);
}

/**
 * How long a page keeps reporting its regions after it saw the capture level fall below frames:
 * the worker applies the new level a moment later, and frames it takes meanwhile must stay masked.
 */
export const RECT_REPORTER_GRACE_MS = 2_000;

/**
 * Events after which the regions may have moved or changed, listened for in the capture phase of the
 * document: an element's `load` (an image or iframe) never propagates to the window (DOM spec, the
 * document's "get the parent"), and an iframe's document is not below the top window at all.
 */
const DOCUMENT_EVENTS = ['scroll', 'input', 'change', 'focusin', 'focusout', 'transitionend', 'animationend', 'load', 'toggle'];
const TOP_DOCUMENT_EVENTS = [...DOCUMENT_EVENTS, 'DOMContentLoaded', 'fullscreenchange', 'visibilitychange'];
const WINDOW_EVENTS = ['resize', 'load', 'pageshow'];
/**
 * Page milestones after which the report is sent even if unchanged: the background forgets a tab's
 * regions when it sees the tab start loading, which may be after the `document_start` report; and
 * only a visible tab is captured.
 */
const MILESTONE_EVENTS = new Set(['DOMContentLoaded', 'load', 'pageshow', 'visibilitychange']);
/** Events after which something new may be shown (the rest move what is shown). */
const CONTENT_EVENTS = new Set(['input', 'change', 'focusin', 'focusout', 'toggle']);
/**
 * What may have changed: `content` (something new may be shown), `layout` (what is shown moved),
 * `typing` (a character typed into the focused text field: a region already, so only its layout may
 * change; reported with the next animation frame, off the agent's path), `milestone`.
 */
type Change = 'milestone' | 'content' | 'layout' | 'typing';
/**
 * A report slower than this is not repeated every animation frame, but after a pause of 8× its cost;
 * what the next one will cost: a walk of the page, or measuring again what the last walk found.
 */
const CHEAP_COLLECT_MS = 2;
/** The focused element, looking into open shadow roots and same-origin iframes. */
function deepActiveElement(doc: Document): Element | null {
  let el: Element | null = doc.activeElement;
  for (let depth = 0; el && depth < 16; depth++) {
    let inner: Element | null = el.shadowRoot?.activeElement ?? null;
    if (!inner && (el.localName === 'iframe' || el.localName === 'frame')) {
      try {
        inner = (el as HTMLIFrameElement).contentDocument?.activeElement ?? null;
      } catch {
        inner = null; // another origin
      }
    }
    if (!inner || inner === el) break;
    el = inner;
  }
  return el;
}

/** `requestAnimationFrame` does not run in a hidden document: fall back to a timer. */
const FRAME_FALLBACK_MS = 100;

/**
 * Reports where sensitive content is in the top document's viewport (`redaction/rects`), so that
 * frames can be masked before they are stored: once the document has first painted (until then
 * the screen shows the page it replaced, and the worker, with no report, drops the tab's frames),
 * then whenever the regions may have changed — scrolling (any scroller),
 * resizing, typing, focus changes, DOM mutations (same-origin iframes and open shadow roots
 * included), transitions and animations ending, loads. Focus, DOM and value changes are reported
 * once at the end of the task that made them, so the report is on its way before the change is painted (past a
 * budget of collecting time, with the next animation frame); typing into the focused text field (a
 * region already) with the next animation frame, so an agent's keystrokes do not wait for it; layout
 * changes at once after a quiet spell, then at most once per animation frame. The page is walked
 * again after a DOM mutation, a milestone, or `walkMaxAgeMs`; otherwise (focus moved, a value typed,
 * scrolling) what the last walk found is measured again, every form field examined again, which
 * gives the same rects for a fraction of the cost. A report equal to the last one is not sent, except
 * at page milestones and every `resendMs` while polling. Never throws into the page.
 * @example const stop = startSensitiveRectReporter(window, send); stop.refresh(); stop();
 */
export function startSensitiveRectReporter(
  win: Window,
  emit: (message: SensitiveRectsMessage) => void,
  opts: RectReporterOptions = {},
): RectReporter {
  const now = opts.now ?? (() => performance.now());
  const quietMs = opts.quietMs ?? RECT_REPORTER_DEFAULTS.quietMs;
  const contentBudgetMs = opts.contentBudgetMs ?? RECT_REPORTER_DEFAULTS.contentBudgetMs;
  const pollMs = opts.pollMs ?? RECT_REPORTER_DEFAULTS.pollMs;
  const resendMs = opts.resendMs ?? RECT_REPORTER_DEFAULTS.resendMs;
  const warn = opts.warn ?? ((m: string) => console.warn(`[afr] ${m}`));
  const collector = opts.collect ? null : createSensitiveRectCollector(undefined, REPORT_MARGIN_CSS_PX);
  const collect = opts.collect ?? ((doc, onRoot) => collector!.collect(doc, { onRoot }));
  const remeasure = opts.remeasure ?? ((doc) => collector?.remeasure(doc) ?? null);
  const walkMaxAgeMs = opts.walkMaxAgeMs ?? RECT_REPORTER_DEFAULTS.walkMaxAgeMs;
  const fewerDelayMs = opts.fewerDelayMs ?? RECT_REPORTER_DEFAULTS.fewerDelayMs;

  let stopped = false;
  /** The document has painted: until then no report goes (the screen still shows the page before it). */
  let painted = true;
  let lastRun = -Infinity;
  /** What the last walk of the page cost, and the last measuring again of what it found (ms). */
  let walkCost = 0;
  let remeasureCost = 0;
  /** The last attempt to measure again gave rects (else it walked: an iframe met, or nothing to measure again with). */
  let remeasured = opts.remeasure !== undefined || !opts.collect;
  /** Time spent collecting lately: each report adds its cost, and the sum halves every 100 ms. */
  let recentCost = 0;
  /** The DOM may have changed since the last collection (a mutation, a milestone, a refresh): collect, do not remeasure. */
  let domChanged = true;
  let lastCollect = -Infinity;
  /** Walks the page once the last walk is `walkMaxAgeMs` old (set after a report measured again). */
  let walkTimer: ReturnType<typeof setTimeout> | null = null;
  let lastKey = '';
  let lastSent = -Infinity;
  /** What the last report sent said besides its rects (URL, viewport, pixel ratio), and its rects. */
  let lastShape = '';
  let lastRects = new Set<string>();
  /** Since when the regions are fewer than last sent (a report waiting), and the timer that sends it. */
  let fewerSince: number | null = null;
  let fewerTimer: ReturnType<typeof setTimeout> | null = null;
  /** A report is due at the end of the current task. */
  let soon = false;
  let frame: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let href = '';
  let url = '';
  /** The element that had the focus when the regions were last collected (through shadow roots and iframes). */
  let focusedAtCollect: Element | null = null;
  const removers: (() => void)[] = [];
  const warned = new Set<string>();

  const guarded = (what: string, fn: () => void) => {
    try {
      fn();
    } catch (err) {
      const text = `${what} failed: ${errorMessage(err)}`;
      if (warned.size >= 10 || warned.has(text)) return;
      warned.add(text);
      warn(text);
    }
  };

  const cancel = () => {
    if (frame !== null) win.cancelAnimationFrame?.(frame);
    if (timer !== null) clearTimeout(timer);
    frame = timer = null;
  };

  const recent = () => recentCost * 0.5 ** ((now() - lastRun) / 100);

  /** A timer that runs `first`, then reports (unless stopped), in `ms`. */
  const reportIn = (ms: number, first: () => void) =>
    setTimeout(
      () =>
        guarded('reporting sensitive regions', () => {
          first();
          if (!stopped) report(false);
        }),
      ms,
    );

  /** What the last walk found was measured again: the page is walked again once that walk is `walkMaxAgeMs` old. */
  const walkLater = () => {
    walkTimer ??= reportIn(Math.max(0, lastCollect + walkMaxAgeMs - now()), () => {
      walkTimer = null;
      domChanged = true;
    });
  };
  const cancelWalk = () => {
    if (walkTimer !== null) clearTimeout(walkTimer);
    walkTimer = null;
  };

  /** No report with fewer regions is waiting any more (one was sent, or the regions are back). */
  const settleFewer = () => {
    fewerSince = null;
    if (fewerTimer !== null) clearTimeout(fewerTimer);
    fewerTimer = null;
  };
  /** The regions are fewer than last sent: true while that report may wait (a timer then sends it). */
  const waitWithFewer = (): boolean => {
    fewerSince ??= now();
    const left = fewerSince + fewerDelayMs - now();
    if (left <= 0) return false;
    fewerTimer ??= reportIn(left, () => {
      fewerTimer = null;
    });
    return true;
  };

  /**
   * The next report measures again what the last walk found (no DOM change since, and that walk is
   * recent). Mutations not yet delivered to the observer (made in this task) count as changes.
   */
  const willRemeasure = () => {
    if (mutations.takeRecords().length) domChanged = true;
    return !domChanged && now() - lastCollect < walkMaxAgeMs;
  };

  /**
   * Measures the regions now (measuring again what the last walk found, or walking the page): the
   * report of them, or null when the viewport has no size yet. Counts what it cost, for pacing.
   */
  const measure = (): SensitiveRectsMessage | null => {
    let walked = false;
    let out: SensitiveRectsMessage | null = null;
    recentCost = recent();
    const start = now();
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
        rects = collect(win.document, observe);
      }
      focusedAtCollect = deepActiveElement(win.document);
      if (win.location.href !== href) {
        href = win.location.href;
        url = redactUrl(href);
      }
      const dpr = win.devicePixelRatio > 0 ? win.devicePixelRatio : 1;
      out = { type: 'redaction/rects', ts: Date.now(), url, viewport: { width, height }, device_pixel_ratio: dpr, rects, scroll: { x: win.scrollX, y: win.scrollY } };
    });
    lastRun = now();
    const cost = lastRun - start;
    if (walked) walkCost = cost;
    else remeasureCost = cost;
    recentCost += cost;
    return out;
  };

  /** Reports the regions if they changed since the last report sent (or `force`). */
  const report = (force: boolean) => {
    cancel();
    soon = false;
    if (!painted) return;
    const message = measure();
    if (!message) return;
    guarded('reporting sensitive regions', () => {
      const { url: at, viewport, device_pixel_ratio: dpr, rects, scroll } = message;
      const shape = JSON.stringify([at, viewport.width, viewport.height, dpr]);
      const rectKeys = rects.map((r) => `${r.x},${r.y},${r.width},${r.height}`);
      // With regions, where the page is scrolled to matters too: the worker places them by it.
      const key = `${shape}${rectKeys.join(';')}${rectKeys.length ? `@${scroll?.x ?? 0},${scroll?.y ?? 0}` : ''}`;
      if (key === lastKey && !force && now() - lastSent < resendMs) return settleFewer();
      const fewer = shape === lastShape && new Set(rectKeys).size < lastRects.size && rectKeys.every((k) => lastRects.has(k));
      if (!force && fewer && waitWithFewer()) return;
      settleFewer();
      lastKey = key;
      lastShape = shape;
      lastRects = new Set(rectKeys);
      lastSent = now();
      emit(message);
    });
  };

  /**
   * Reports at the end of the current task (a microtask), still before the change is painted: the
   * events of one change make one report, e.g. a script moving the focus fires the field's `change`,
   * its `focusout` and the next field's `focusin`.
   */
  const reportSoon = () => {
    if (soon) return;
    soon = true;
    queueMicrotask(() =>
      guarded('reporting sensitive regions', () => {
        if (soon && !stopped) report(false);
      }),
    );
  };

  /**
   * Something may have changed. A page milestone is reported now, even if unchanged; a change of
   * content now unless reports come thick and fast; a change of layout now after a quiet spell. Else
   * with the next animation frame (or later when collecting is slow).
   */
  const request = (change: Change) => {
    if (stopped) return;
    if (change === 'milestone') {
      domChanged = true;
      return report(true);
    }
    const due = change === 'content' ? recent() < contentBudgetMs : change === 'layout' && now() - lastRun >= quietMs;
    if (due) return reportSoon();
    if (frame !== null || timer !== null) return;
    // Asked again when it fires: the page's own handlers of the event may change the DOM after this
    // one ran (a sticky header on scroll), and a walk costs more than measuring again.
    const fire = () => {
      const left = paceLeft();
      if (left <= 0) return report(false);
      cancel();
      timer = setTimeout(fire, left);
    };
    const left = paceLeft();
    if (left > 0) timer = setTimeout(fire, left);
    else {
      frame = win.requestAnimationFrame?.(fire) ?? null;
      timer = setTimeout(fire, FRAME_FALLBACK_MS);
    }
  };

  /**
   * How long the next report waits, paced by what it will cost: after a run, 8 times that cost (at
   * most 250 ms) when over `CHEAP_COLLECT_MS`. Scrolling a page whose DOM stays as it was is measured
   * again, cheap, every frame, though its last walk was slow.
   */
  const paceLeft = () => {
    const cost = willRemeasure() && remeasured ? remeasureCost : walkCost;
    return cost > CHEAP_COLLECT_MS ? lastRun + Math.min(250, cost * 8) - now() : 0;
  };

  // The top window or document (windows are only listened to at the top), not an image or iframe loading.
  const isMilestone = (e: Event) =>
    MILESTONE_EVENTS.has(e.type) && (e.target === win.document || (e.target as Partial<Node> | null)?.nodeType === undefined) && !win.document.hidden;
  const changeOf = (e: Event): Change => {
    if (isMilestone(e)) return 'milestone';
    // The field an `input` event comes from, even inside a shadow root (the document sees its host).
    // Typing only when the last report was collected with that field focused and none is pending:
    // else that report may not hold the field yet.
    const target = e.composedPath?.()[0] ?? e.target;
    if (e.type === 'input' && target === focusedAtCollect && !soon && frame === null && timer === null && isFocusedTypedField(target)) return 'typing';
    return CONTENT_EVENTS.has(e.type) ? 'content' : 'layout';
  };
  const onEvent = (e: Event) => guarded('handling an event', () => request(changeOf(e)));
  /** Listens in the capture phase; `removable`: removed on stop (else idle once stopped, and not kept alive by us). */
  const listen = (target: EventTarget, types: readonly string[], removable = true) => {
    const options = { capture: true, passive: true };
    for (const type of types) target.addEventListener(type, onEvent, options);
    if (removable) removers.push(() => types.forEach((type) => target.removeEventListener(type, onEvent, options)));
  };

  const mutations = new MutationObserver(() =>
    guarded('handling a mutation', () => {
      domChanged = true;
      request('content');
    }),
  );
  const observed = new WeakSet<Node>();
  /** Watches every document and shadow root the collection walks: mutations there do not reach `win.document`'s observer. */
  function observe(root: Document | ShadowRoot): void {
    if (observed.has(root)) return;
    observed.add(root);
    mutations.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
    // A same-origin iframe's scrolling and typing do not reach the top window. Its listeners are not
    // kept for removal: that would keep a navigated-away iframe document alive.
    if (root !== win.document && root.nodeType === 9) listen(root, DOCUMENT_EVENTS, false);
  }

  guarded('starting the sensitive region reporter', () => {
    listen(win.document, TOP_DOCUMENT_EVENTS);
    listen(win, WINDOW_EVENTS);
    // A report with fewer regions still waiting is not sent from a page being left: the worker has
    // forgotten this page's regions since the navigation started, and would apply it to the next one.
    const onPageHide = () => guarded('leaving the page', settleFewer);
    win.addEventListener('pagehide', onPageHide, { capture: true });
    removers.push(() => win.removeEventListener('pagehide', onPageHide, { capture: true }));
    const fonts = win.document.fonts as FontFaceSet | undefined;
    if (fonts?.addEventListener) listen(fonts, ['loadingdone']);
    observe(win.document);
  });
  const tick = () => {
    if (!win.document.hidden) report(false);
  };
  const poll = pollMs > 0 ? setInterval(() => guarded('polling', tick), pollMs) : null;
  let stopWaiting: (() => void) | null = null;
  guarded('waiting for the first paint', () => {
    const onPainted = () =>
      guarded('reporting sensitive regions', () => {
        painted = true;
        domChanged = true;
        if (!stopped) report(true);
      });
    stopWaiting = (opts.whenPainted ?? ((done) => whenFirstPainted(win, done)))(onPainted);
    painted = stopWaiting === null;
  });
  report(false);

  const stop = () => {
    stopped = true;
    stopWaiting?.();
    cancel();
    settleFewer();
    cancelWalk();
    if (poll !== null) clearInterval(poll);
    mutations.disconnect();
    removers.splice(0).forEach((remove) => guarded('removing a listener', remove));
  };
  const refresh = (force = false) => {
    domChanged = true;
    if (!stopped) report(force);
  };
  /**
   * Questions waiting for an answer (`sync`). Answered at the second animation frame after the
   * question came: the frame already asked for when it came may carry the compositor's scroll from
   * before the picture the worker asks about; the next one is asked for after it, and carries what
   * the compositor did since. Later when measuring is slow (paced as the reports are).
   */
  const answers: ((report: SensitiveRectsMessage | null) => void)[] = [];
  let syncFrame: number | null = null;
  let syncTimer: ReturnType<typeof setTimeout> | null = null;
  const answerAll = (report: SensitiveRectsMessage | null) => {
    for (const answer of answers.splice(0)) guarded('answering with the sensitive regions', () => answer(report));
  };
  const cancelSync = () => {
    if (syncFrame !== null) win.cancelAnimationFrame?.(syncFrame);
    if (syncTimer !== null) clearTimeout(syncTimer);
    syncFrame = syncTimer = null;
  };
  /** Measures now and answers every question waiting. */
  const answerNow = () => {
    cancelSync();
    answerAll(!stopped && painted ? measure() : null);
  };
  const inFrames = (frames: number, then: () => void) => {
    syncFrame = win.requestAnimationFrame(() => {
      syncFrame = null;
      guarded('answering with the sensitive regions', () => (frames > 1 ? inFrames(frames - 1, then) : then()));
    });
  };
  const answerPaced = () => {
    const left = paceLeft();
    if (left <= 0) return answerNow();
    syncTimer = setTimeout(() => {
      syncTimer = null;
      guarded('answering with the sensitive regions', () => inFrames(1, answerPaced));
    }, left);
  };
  const sync = (answer: (report: SensitiveRectsMessage | null) => void) => {
    if (stopped) return answer(null);
    answers.push(answer);
    // A hidden document has no animation frames, and nothing on screen for the compositor to move.
    if (win.document.hidden || !win.requestAnimationFrame) return answerNow();
    // Others waiting (rare: the worker asks one question at a time) are answered with this one, two
    // animation frames from now: the frame their count had reached may predate this question.
    cancelSync();
    inFrames(2, answerPaced);
  };
  // Hidden while a question waits: its animation frames will not come.
  const onHidden = () => guarded('answering with the sensitive regions', () => win.document.hidden && answers.length > 0 && answerNow());
  win.document.addEventListener('visibilitychange', onHidden);
  removers.push(() => win.document.removeEventListener('visibilitychange', onHidden));
  removers.push(() => answerNow());
  return Object.assign(stop, { refresh, sync });
}

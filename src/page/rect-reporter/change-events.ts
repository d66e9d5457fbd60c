import type { Guard } from './guard';

/**
 * What may have changed: `content` (something new may be shown), `layout` (what is shown moved),
 * `typing` (a character typed into the focused text field: a region already, so only its layout may
 * change; reported with the next animation frame, off the agent's path), `milestone`.
 */
export type Change = 'milestone' | 'content' | 'layout' | 'typing';

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
 * What an event of the top window, its document or a watched iframe document may have changed.
 * `isTyping`: the field an `input` event came from is being typed into (see `Change`).
 */
export function classifyChange(e: Event, win: Window, isTyping: (target: EventTarget | null) => boolean): Change {
  // The top window or document (windows are only listened to at the top), not an image or iframe loading.
  const milestone =
    MILESTONE_EVENTS.has(e.type) && (e.target === win.document || (e.target as Partial<Node> | null)?.nodeType === undefined) && !win.document.hidden;
  if (milestone) return 'milestone';
  // The field an `input` event comes from, even inside a shadow root (the document sees its host).
  const target = e.composedPath?.()[0] ?? e.target;
  if (e.type === 'input' && isTyping(target)) return 'typing';
  return CONTENT_EVENTS.has(e.type) ? 'content' : 'layout';
}

/** The listeners and the mutation observer telling the reporter what may have changed. */
export interface ChangeWatch {
  /** Watches a document or shadow root the collection walked: mutations there do not reach the top document's observer. */
  observe(root: Document | ShadowRoot): void;
  /** Takes the mutations not yet delivered to the observer (made in this task): true if there were any. */
  takeMutations(): boolean;
  /** Removes every listener kept for removal and disconnects the observer. */
  stop(): void;
}

export interface ChangeWatchHandlers {
  guarded: Guard;
  /** An event may have changed the regions (see `classifyChange`). */
  onChange(change: Change): void;
  /** The DOM changed (after `onChange` would say `content`, but the page must be walked again). */
  onMutation(): void;
  /** The page is being left (`pagehide`). */
  onPageHide(): void;
  /** Passed to `classifyChange`. */
  isTyping(target: EventTarget | null): boolean;
}

/**
 * Listens, in the capture phase and passively, for the events after which the regions may have
 * changed (`classifyChange`), and observes DOM mutations of the top document and of every root
 * `observe` is given. Every handler runs in `guarded`.
 */
export function watchChanges(win: Window, handlers: ChangeWatchHandlers): ChangeWatch {
  const { guarded } = handlers;
  const removers: (() => void)[] = [];
  const onEvent = (e: Event) => guarded('handling an event', () => handlers.onChange(classifyChange(e, win, handlers.isTyping)));
  /** Listens in the capture phase; `removable`: removed on stop (else idle once stopped, and not kept alive by us). */
  const listen = (target: EventTarget, types: readonly string[], removable = true) => {
    const options = { capture: true, passive: true };
    for (const type of types) target.addEventListener(type, onEvent, options);
    if (removable) removers.push(() => types.forEach((type) => target.removeEventListener(type, onEvent, options)));
  };

  const mutations = new MutationObserver(() => guarded('handling a mutation', handlers.onMutation));
  const observed = new WeakSet<Node>();
  const observe = (root: Document | ShadowRoot): void => {
    if (observed.has(root)) return;
    observed.add(root);
    mutations.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
    // A same-origin iframe's scrolling and typing do not reach the top window. Its listeners are not
    // kept for removal: that would keep a navigated-away iframe document alive.
    if (root !== win.document && root.nodeType === 9) listen(root, DOCUMENT_EVENTS, false);
  };

  /**
   * The device pixel ratio may change with no resize (the window moved to another screen, an emulated
   * device scale): a query for the current ratio stops matching, and is asked again for the new one
   * (MDN, "Window: devicePixelRatio property", monitoring screen resolution changes). Each frame says
   * the viewport it shows, the ratio included, from the page's reports.
   */
  let stopRatioWatch = () => {};
  const watchPixelRatio = (): void => {
    if (typeof win.matchMedia !== 'function') return;
    const query = win.matchMedia(`(resolution: ${win.devicePixelRatio}dppx)`);
    const onRatio = () =>
      guarded('handling a pixel ratio change', () => {
        stopRatioWatch();
        watchPixelRatio();
        handlers.onChange('layout');
      });
    query.addEventListener('change', onRatio);
    stopRatioWatch = () => query.removeEventListener('change', onRatio);
  };
  removers.push(() => stopRatioWatch());

  guarded('starting the sensitive region reporter', () => {
    listen(win.document, TOP_DOCUMENT_EVENTS);
    listen(win, WINDOW_EVENTS);
    // A pinch zoom (or a mobile page's zoom settling) moves and scales what a frame shows without a window event.
    if (win.visualViewport) listen(win.visualViewport, ['resize', 'scroll']);
    const onPageHide = () => guarded('leaving the page', handlers.onPageHide);
    win.addEventListener('pagehide', onPageHide, { capture: true });
    removers.push(() => win.removeEventListener('pagehide', onPageHide, { capture: true }));
    watchPixelRatio();
    const fonts = win.document.fonts as FontFaceSet | undefined;
    if (fonts?.addEventListener) listen(fonts, ['loadingdone']);
    observe(win.document);
  });

  return {
    observe,
    takeMutations: () => mutations.takeRecords().length > 0,
    stop: () => {
      mutations.disconnect();
      removers.splice(0).forEach((remove) => guarded('removing a listener', remove));
    },
  };
}

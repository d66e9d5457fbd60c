import type { StepObservedMessage } from '../../schemas/messages';
import type { Rect } from '../../schemas/snapshot';
import type { ActionPlace } from '../../schemas/timeline';
import { readFieldValue } from '../redact/field-value';
import type { TextMasker } from '../redact/mask-text';
import { createRedactionCounts } from '../redact/redaction-counts';
import { redactUrl } from '../redact/redact-url';
import { describeTarget, interactiveTarget } from '../snapshot/describe-target';
import { collapseWhitespace, readableText } from '../snapshot/readable-text';

export interface ObserveActionsOptions {
  /** Quiet time after the last `input` event of a field before its value is recorded once. */
  inputDebounceMs?: number;
  /**
   * How often the URL is compared with the last one seen. The isolated world cannot hook the page's
   * `history.pushState`, so single-page navigations are found by polling (and on every event). 0: off.
   */
  urlPollMs?: number;
  now?: () => number;
  /**
   * Where an action happens in the page's DOM timeline (top frame, capture level `trace` and up):
   * called as its step is made, before the page's own handlers run; its checkpoint and the target's
   * node, rect and (pointer actions) point go with the step.
   */
  place?: (label: string, target: Element | null, point?: { x: number; y: number }) => ActionPlace | null;
}


const KEYS = new Set(['Enter', 'Tab', 'Escape']);
const NOT_TYPED = new Set(['checkbox', 'radio', 'file', 'submit', 'button', 'reset', 'image', 'hidden']);
const MAX_EDITABLE_CHARS = 1024;

/** Runs `fn`; a failure inside the recorder is logged, never thrown into the page. */
function guarded<A extends unknown[]>(what: string, fn: (...args: A) => void): (...args: A) => void {
  return (...args) => {
    try {
      fn(...args);
    } catch (err) {
      console.warn(`[afr] ${what} failed`, err);
    }
  };
}

/** The element an event happened on, looking into open shadow roots. */
function eventElement(e: Event): Element | null {
  const first = (e.composedPath?.()[0] ?? e.target) as Node | null;
  if (!first) return null;
  return first.nodeType === 1 ? (first as Element) : first.parentElement;
}

function isEditable(el: Element): boolean {
  return (el as HTMLElement).isContentEditable === true;
}

/** Where a pointer event happened in the viewport; none for a click without a pointer (a key, `el.click()`). */
function pointOf(e: Event | undefined): { x: number; y: number } | undefined {
  const m = e as MouseEvent | undefined;
  if (!m || typeof m.clientX !== 'number' || (m.detail === 0 && m.clientX === 0 && m.clientY === 0)) return undefined;
  return { x: m.clientX, y: m.clientY };
}

/** The target's place in the timeline, as the step's target carries it. */
function placeOfTarget(place: ActionPlace): { node?: number; rect?: Rect; point?: { x: number; y: number } } {
  const out: { node?: number; rect?: Rect; point?: { x: number; y: number } } = {};
  if (place.node !== undefined) out.node = place.node;
  if (place.rect) out.rect = place.rect;
  if (place.point) out.point = place.point;
  return out;
}

/**
 * An event the page's own script dispatched (`element.click()`, `dispatchEvent`), not input from the
 * browser: a person, or an agent through Playwright, Puppeteer or CDP, whose events are trusted. Its
 * step is marked `synthetic`, not dropped: an agent may act through page script, and what the page did
 * by itself can explain a failure; the worker keeps such steps to a quota of their own.
 */
const synthetic = (e: Event) => e.isTrusted === false;

/** Fields whose `input` events are typing (select, checkbox and radio report through `change`). */
function isTyped(el: Element): boolean {
  if (el.localName === 'textarea') return true;
  if (el.localName === 'input') return !NOT_TYPED.has((el.getAttribute('type') ?? 'text').trim().toLowerCase());
  return isEditable(el);
}

/**
 * Records what the user (or an agent driving the page) does: clicks, typing (debounced per field,
 * the final value once), changes of selects and checkboxes, Enter/Tab/Escape, form submits and
 * navigations. Values of sensitive fields are never read out: they are reported as
 * `value: null, value_redacted: true`; other text is masked. Listens in the capture phase on
 * `win`, so it works from `document_start` and sees events the page stops. Returns a dispose function.
 */
export function observeActions(
  win: Window,
  emit: (step: StepObservedMessage) => void,
  masker: () => TextMasker,
  opts: ObserveActionsOptions = {},
): () => void {
  const debounceMs = opts.inputDebounceMs ?? 400;
  const now = opts.now ?? Date.now;
  /** Typed fields whose value is not sent yet: the debounce timer, and when the last character was typed. */
  const pending = new Map<Element, { timer: ReturnType<typeof setTimeout>; at: number; synthetic: boolean }>();
  let lastUrl = win.location.href;

  /** Sends a step that happened at `at` (default: now); `untrusted`: of an event the page's script dispatched. */
  const send = (
    kind: StepObservedMessage['kind'],
    action: string,
    el: Element | null,
    value: string | null = null,
    redacted = false,
    at = now(),
    untrusted = false,
    event?: Event,
  ) => {
    const target = el ? describeTarget(el, masker()) : null;
    const place = kind === 'navigate' ? null : (opts.place?.(`${action}${target ? ` ${target.tag}${target.name ? ` '${target.name}'` : ''}` : ''}`, el, pointOf(event)) ?? null);
    emit({
      type: 'step/observed',
      ts: at,
      url: redactUrl(win.location.href, masker()),
      kind,
      action,
      target: target && place ? { ...target, ...placeOfTarget(place) } : target,
      value,
      value_redacted: redacted,
      outcome: null,
      label: null,
      ...(untrusted ? { synthetic: true as const } : {}),
      ...(place ? { checkpoint: place.checkpoint } : {}),
    });
  };

  const checkUrl = () => {
    if (win.location.href === lastUrl) return;
    lastUrl = win.location.href;
    send('navigate', 'navigate', null);
  };

  /**
   * The typed value's step, at `at`: when its last character was typed, not when it is sent (after a
   * pause, a click or a key, or as the page is left, which may be after the next page started).
   */
  const emitTyped = (el: Element, at: number, untrusted: boolean) => {
    const field = readFieldValue(el, createRedactionCounts(), masker());
    if (field) return send('input', 'type', el, field.value, field.value_redacted, at, untrusted);
    if (isEditable(el)) {
      const text = masker().maskAndCap(collapseWhitespace(readableText(el)), MAX_EDITABLE_CHARS, createRedactionCounts().text);
      send('input', 'type', el, text, false, at, untrusted);
    }
  };

  const flush = (el: Element) => {
    const typing = pending.get(el);
    if (typing === undefined) return;
    clearTimeout(typing.timer);
    pending.delete(el);
    emitTyped(el, typing.at, typing.synthetic);
  };
  const flushAll = () => [...pending.keys()].forEach(flush);

  const handlers: Record<string, (e: Event) => void> = {
    click(e) {
      const el = eventElement(e);
      flushAll();
      if (el) send('click', 'click', interactiveTarget(el), null, false, now(), synthetic(e), e);
    },
    input(e) {
      const el = eventElement(e);
      if (!el || !isTyped(el)) return;
      clearTimeout(pending.get(el)?.timer);
      pending.set(el, { timer: setTimeout(guarded('input recording', () => flush(el)), debounceMs), at: now(), synthetic: synthetic(e) });
    },
    change(e) {
      const el = eventElement(e);
      if (!el) return;
      if (isTyped(el)) return flush(el);
      const type = (el.getAttribute('type') ?? '').toLowerCase();
      if (type === 'checkbox' || type === 'radio') {
        return send('change', (el as HTMLInputElement).checked ? 'check' : 'uncheck', el, null, false, now(), synthetic(e));
      }
      if (type === 'file') return send('change', 'choose file', el, null, false, now(), synthetic(e));
      const field = readFieldValue(el, createRedactionCounts(), masker());
      send('change', 'select', el, field?.value ?? null, field?.value_redacted ?? false, now(), synthetic(e));
    },
    keydown(e) {
      const key = (e as KeyboardEvent).key;
      if (!KEYS.has(key) || (e as KeyboardEvent).isComposing) return;
      const el = eventElement(e);
      if (el) flush(el);
      const k = e as KeyboardEvent;
      const mods = `${k.ctrlKey ? 'Control+' : ''}${k.altKey ? 'Alt+' : ''}${k.metaKey ? 'Meta+' : ''}${k.shiftKey ? 'Shift+' : ''}`;
      send('key', `press ${mods}${key}`, el, null, false, now(), synthetic(e));
    },
    submit(e) {
      flushAll();
      send('submit', 'submit', eventElement(e), null, false, now(), synthetic(e));
    },
    popstate() {},
    hashchange() {},
    pagehide() {
      flushAll();
    },
  };

  const listeners = Object.entries(handlers).map(([type, handle]) => {
    const listener = guarded(`${type} observer`, (e: Event) => {
      checkUrl();
      handle(e);
    });
    win.addEventListener(type, listener, { capture: true });
    return [type, listener] as const;
  });

  const pollMs = opts.urlPollMs ?? 1000;
  const poll = pollMs > 0 ? setInterval(guarded('url poll', checkUrl), pollMs) : undefined;
  guarded('navigation observer', () => send('navigate', 'navigate', null))();

  return () => {
    for (const [type, listener] of listeners) win.removeEventListener(type, listener, { capture: true });
    if (poll !== undefined) clearInterval(poll);
    pending.forEach(({ timer }) => clearTimeout(timer));
    pending.clear();
  };
}

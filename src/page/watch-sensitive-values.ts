import { classifySensitiveField } from '../redact/classify-field';
import type { CompiledRedactionRules } from '../redact/custom-rules';
import { hasFieldValue } from '../redact/field-value';
import type { KnownSecrets } from '../redact/known-secrets';

export interface SensitiveValueWatch {
  /** Reads every field of the document now (before a snapshot: a script may have set a value silently). */
  sweep(): void;
  stop(): void;
}

const isPasswordType = (type: string | null | undefined) => (type ?? '').trim().toLowerCase() === 'password';

/** The element an event happened on, looking into open shadow roots. */
function eventField(e: Event): Element | null {
  const first = (e.composedPath?.()[0] ?? e.target) as Partial<Element> | null;
  return first && typeof first.localName === 'string' ? (first as Element) : null;
}

function hasFocus(el: Element): boolean {
  return (el.getRootNode() as Partial<DocumentOrShadowRoot>).activeElement === el;
}

/**
 * Feeds `secrets` with what this document's sensitive fields hold: values typed (by a person or an
 * agent) into, or set on, a field `classifySensitiveField` withholds (a password, a field sensitive by
 * its type, name or label, a custom rule's selector or field name), while typed and when left; and
 * which fields were ever `type=password`, so they stay withheld when a "show" button makes them
 * text, whichever of the switch and the recorder's first look came first. Selects and hidden inputs
 * are left out: their values are choices and ids ("United States", "1"), not typed secrets.
 * Listens from `document_start` in the capture phase, so a value is known before the page's own
 * `input` handler echoes it. The document is read again (`sweep`) when nodes were added or a `type`
 * or `value` attribute changed, at the latest when `secrets` is next asked. Never throws into the page.
 */
export function watchSensitiveValues(win: Window, secrets: KnownSecrets, rules: () => CompiledRedactionRules): SensitiveValueWatch {
  const doc = win.document;
  /** Each field's value when last read: an unchanged field is not classified again. */
  const lastRead = new WeakMap<Element, string>();
  let dirty = true;
  let reading = false;
  let settled = false;

  const guarded =
    <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A) => {
      try {
        fn(...args);
      } catch (err) {
        console.warn('[afr] watching sensitive fields failed', err);
      }
    };

  const note = (el: Element, typing: boolean) => {
    if (!hasFieldValue(el) || el.localName === 'select') return;
    if (el.localName === 'input' && isPasswordType(el.getAttribute('type'))) secrets.markPassword(el);
    const value = (el as HTMLInputElement).value;
    if (typeof value !== 'string') return;
    lastRead.set(el, value);
    const kind = classifySensitiveField(el, rules(), secrets);
    if (kind && kind !== 'hidden') secrets.noteValue(el, value, kind, typing);
  };

  const sweep = () => {
    dirty = false;
    for (const tag of ['input', 'textarea']) {
      const fields = doc.getElementsByTagName(tag);
      for (let i = 0; i < fields.length; i++) {
        const el = fields[i]!;
        if (tag === 'input' && isPasswordType(el.getAttribute('type'))) secrets.markPassword(el);
        const value = (el as HTMLInputElement).value;
        if (lastRead.get(el) !== value) note(el, hasFocus(el));
      }
    }
  };

  const onRecords = (records: MutationRecord[]) => {
    for (const r of records) {
      if (r.type === 'childList') {
        if (!dirty) for (let i = 0; i < r.addedNodes.length && !dirty; i++) dirty = r.addedNodes[i]!.nodeType === 1;
        continue;
      }
      const el = r.target as Element;
      // Switched away from `password`: a field never seen before still counts as one.
      if (r.attributeName === 'type' && isPasswordType(r.oldValue)) {
        secrets.markPassword(el);
        note(el, hasFocus(el));
      }
      dirty = true;
    }
  };
  const observer = new MutationObserver(guarded(onRecords));
  observer.observe(doc, { subtree: true, childList: true, attributes: true, attributeFilter: ['type', 'value'], attributeOldValue: true });

  // Before `secrets` answers, what the page did since is taken in: pending records first (they may
  // tell of a password field switched to text), then the fields read again if nodes were added.
  // Once per task: a snapshot asks thousands of times, and the page cannot run in between.
  secrets.beforeRead = guarded(() => {
    if (reading || settled) return;
    reading = true;
    try {
      onRecords(observer.takeRecords());
      if (dirty) sweep();
    } finally {
      reading = false;
    }
    settled = true;
    queueMicrotask(() => (settled = false));
  });

  const onInput = guarded((e: Event) => {
    const el = eventField(e);
    if (el) note(el, hasFocus(el));
  });
  const onFocusOut = guarded((e: Event) => {
    const el = eventField(e);
    if (el && hasFieldValue(el)) secrets.endTyping(el);
  });
  const listeners: [string, (e: Event) => void][] = [
    ['input', onInput],
    ['change', onInput],
    ['focusout', onFocusOut],
  ];
  for (const [type, listener] of listeners) win.addEventListener(type, listener, { capture: true });

  return {
    sweep: guarded(() => {
      onRecords(observer.takeRecords());
      sweep();
    }),
    stop() {
      observer.disconnect();
      secrets.beforeRead = undefined;
      for (const [type, listener] of listeners) win.removeEventListener(type, listener, { capture: true });
    },
  };
}

import type { RedactionKind, TextMaskKind } from '../../schemas/snapshot';
import { TEXT_MASKS } from './mask-text';
import type { TextMaskCounts } from './redaction-counts';

/**
 * Shortest remembered value masked wherever it appears. Four characters: a PIN or a short code is
 * four digits, while a value of one to three characters ("a", "12", "the") would mask ordinary text
 * all over the page. Shorter values are masked only as the trailing word of a text while their field
 * is being typed (see `trailingEcho`), which is how a page echoes a value key by key.
 */
export const MIN_KNOWN_SECRET_CHARS = 4;
/** Longest prefix of a value remembered: a text holding the whole value holds this prefix too. */
export const MAX_KNOWN_SECRET_CHARS = 1024;
/** Most values remembered per document; past it the oldest is forgotten. */
export const MAX_KNOWN_SECRETS = 128;

/** The text mask a value is replaced with, by why its field is sensitive. */
const MASK_KIND: Partial<Record<RedactionKind, TextMaskKind>> = {
  email: 'email',
  tel: 'phone',
  credit_card: 'card_number',
  ssn: 'ssn',
};

/** A character that can end a word an echoed value starts after (`Preview: Kes`, `"Kes"`). */
const WORD_CHAR = /[\p{L}\p{N}_]/u;
/** What may follow an echo at the end of a text: white space, closing quotes and punctuation. */
const TRAILING = /[\s"'\u201d\u2019\u00bb).,;:!?\]]*$/u;

/**
 * Values typed into or set on sensitive fields of one document, kept in memory only and never sent:
 * any text holding one is masked before it leaves the page (`withKnownSecrets`), and the regions of
 * such text are masked in frames. Fed by the page side (`watchSensitiveValues`).
 */
export interface KnownSecrets {
  /** Changes whenever what is masked changes: a masker built on an older version is stale. */
  readonly version: number;
  /**
   * The value of `field` now (typing, a change, a value the page set), why it is sensitive, and
   * whether it is being typed (it has the focus). A value that does not continue the last one seen
   * for the field (a cleared field, a new value) leaves the last one remembered.
   */
  noteValue(field: object, value: string, kind: RedactionKind, typing: boolean): void;
  /** The field is no longer typed into (it lost the focus): its value is remembered as it is. */
  endTyping(field: object): void;
  /** The field was seen as `type=password`: it stays withheld whatever its type becomes. */
  markPassword(field: object): void;
  /** Whether the field was ever seen as `type=password`. */
  wasPassword(field: object): boolean;
  /** False when `maskInto` would leave `text` as it is. */
  holds(text: string): boolean;
  /** `text` with every remembered value replaced by its mask, counting each in `counts`. */
  maskInto(text: string, counts: TextMaskCounts): string;
  /** Called before any question, so the page side can bring what it knows up to date. */
  beforeRead?: () => void;
}

interface Known {
  value: string;
  kind: TextMaskKind;
}

/** Values to remember from a field's value: as typed, and with white space collapsed (as snapshots read text). */
function forms(value: string): string[] {
  const raw = value.slice(0, MAX_KNOWN_SECRET_CHARS);
  const collapsed = raw.replace(/\s+/g, ' ').trim();
  const out = raw.trim().length >= MIN_KNOWN_SECRET_CHARS ? [raw] : [];
  if (collapsed !== raw && collapsed.length >= MIN_KNOWN_SECRET_CHARS) out.push(collapsed);
  return out;
}

/** Where `value` ends `text` as a word of its own (start of text or a non-word character before it), or -1. */
function trailingEcho(text: string, value: string): number {
  const end = text.length - (TRAILING.exec(text)?.[0].length ?? 0);
  // The value may itself end with what `TRAILING` strips (`Kes!`): every cut from the text's end back to it.
  for (let cut = text.length; cut >= end && cut >= value.length; cut--) {
    const start = cut - value.length;
    if (text.startsWith(value, start) && (start === 0 || !WORD_CHAR.test(text[start - 1]!))) return start;
  }
  return -1;
}

/** An empty store of known secrets for one document. */
export function createKnownSecrets(): KnownSecrets {
  /** Values no field holds any more (or that a field held before its current one), oldest first. */
  const kept = new Map<string, Known>();
  /** Each field's current value. */
  const current = new Map<object, Known & { typing: boolean }>();
  const passwords = new WeakSet<object>();
  let version = 0;
  /** Every value masked anywhere, longest first (so a longer value is not cut by a shorter one inside it). */
  let anywhere: Known[] = [];
  /** Values too short to mask anywhere, of fields being typed: masked as a text's trailing word. */
  let growing: Known[] = [];

  const rebuild = () => {
    version++;
    const all = new Map<string, Known>(kept);
    growing = [];
    for (const k of current.values()) {
      for (const value of forms(k.value)) all.set(value, { value, kind: k.kind });
      if (k.typing && k.value && k.value.trim().length < MIN_KNOWN_SECRET_CHARS) growing.push(k);
    }
    anywhere = [...all.values()].sort((a, b) => b.value.length - a.value.length);
  };
  const keep = (k: Known) => {
    for (const value of forms(k.value)) {
      kept.delete(value);
      kept.set(value, { value, kind: k.kind });
    }
    while (kept.size > MAX_KNOWN_SECRETS) kept.delete(kept.keys().next().value!);
  };
  const read = () => store.beforeRead?.();

  const store: KnownSecrets = {
    get version() {
      read();
      return version;
    },
    noteValue(field, value, redactionKind, typing) {
      const kind = MASK_KIND[redactionKind] ?? 'credential';
      const before = current.get(field);
      if (before && before.value === value && before.typing === typing && before.kind === kind) return;
      // Typing on extends the value; anything else (cleared, replaced, a key deleted) keeps the old one.
      if (before && !value.startsWith(before.value)) keep(before);
      current.set(field, { value, kind, typing });
      rebuild();
    },
    endTyping(field) {
      const before = current.get(field);
      if (!before?.typing) return;
      before.typing = false;
      rebuild();
    },
    markPassword(field) {
      passwords.add(field);
    },
    wasPassword(field) {
      read();
      return passwords.has(field);
    },
    holds(text) {
      read();
      if (!text) return false;
      for (const k of anywhere) if (text.includes(k.value)) return true;
      for (const k of growing) if (trailingEcho(text, k.value) >= 0) return true;
      return false;
    },
    maskInto(text, counts) {
      if (!store.holds(text)) return text;
      for (const k of anywhere) {
        if (!text.includes(k.value)) continue;
        const parts = text.split(k.value);
        counts[k.kind] += parts.length - 1;
        text = parts.join(TEXT_MASKS[k.kind]);
      }
      for (const k of growing) {
        const start = trailingEcho(text, k.value);
        if (start < 0) continue;
        counts[k.kind]++;
        text = text.slice(0, start) + TEXT_MASKS[k.kind] + text.slice(start + k.value.length);
      }
      return text;
    },
  };
  return store;
}

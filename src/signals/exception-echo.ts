import { PAGE_ERROR_LIMITS } from '../../schemas/content-port';
import type { TextMasker } from '../redact/mask-text';
import { maskSignalText } from './redact-signal';
import type { RawSignal } from './signal-rules';

/** The page and CDP date an exception they both report this close (both read the renderer's clock). */
const ECHO_SKEW_MS = 1_000;
/** Messages are compared by their first line, up to this long (the page caps its reports at `PAGE_ERROR_LIMITS.messageChars`). */
const ECHO_TEXT_CHARS = 1_024;
/** A report waits this long for its twin from the other source (a session attaching replays it later). */
export const ECHO_KEPT_MS = 60_000;
/** What the page is told of an exception in another origin's script. */
const CROSS_ORIGIN_ERROR = 'Script error.';
/** At most this many of a tab's recent exceptions are remembered (a loop throwing in every frame). */
const ECHO_KEPT = 20;

/** An exception report not matched yet: when it arrived, when it was thrown, its comparable text, from where. */
export interface SeenException {
  at: number;
  thrown: number;
  text: string;
  origin: RawSignal['origin'];
}

/** An exception's message as both sources can say it: its first line, the page's "Uncaught " off, masked as the page masks it. */
export function echoText(message: string, origin: RawSignal['origin'], masker: TextMasker): string {
  const line = message.slice(0, PAGE_ERROR_LIMITS.messageChars).split('\n', 1)[0]!;
  return maskSignalText(origin === 'page_fallback' ? line.replace(/^Uncaught (?!\(in promise\))/, '') : line, masker).slice(0, ECHO_TEXT_CHARS);
}

/**
 * Whether the exception came from the other source already, and the tab's reports still waiting for
 * a twin afterwards. The page reports its own exceptions only while the tab has no debugger session,
 * but one that started meanwhile (a worker restarted, a session attaching and replaying the
 * document's exceptions) may report the same one. Both say when it was thrown; the page says
 * "Uncaught Error: x", masked and capped, where CDP says "Error: x" (a rejection is
 * "Uncaught (in promise): …" in both), and "Script error." for a throw in another origin's script,
 * whose message CDP knows. A report is matched once, with its closest twin in time (one of the same
 * message before a "Script error."), so the same error thrown again soon after is a new one. A replay
 * from long ago waits for no twin.
 */
export function matchEcho(
  seen: readonly SeenException[],
  raw: RawSignal,
  now: number,
  masker: TextMasker,
): { echo: boolean; seen: SeenException[] } {
  const text = echoText(raw.message, raw.origin, masker);
  const recent = seen.filter((e) => now - e.at < ECHO_KEPT_MS);
  // The page's "Script error." and CDP's report of that throw (not of a rejection).
  const crossOrigin = (e: SeenException) => {
    const [page, cdp] = e.origin === 'page_fallback' ? [e.text, text] : [text, e.text];
    return page === CROSS_ORIGIN_ERROR && !cdp.startsWith('Uncaught (in promise)');
  };
  const closest = (match: (e: SeenException) => boolean) => {
    let twin: SeenException | undefined;
    for (const e of recent) {
      if (e.origin === raw.origin || Math.abs(e.thrown - raw.ts) > ECHO_SKEW_MS || !match(e)) continue;
      if (!twin || Math.abs(e.thrown - raw.ts) < Math.abs(twin.thrown - raw.ts)) twin = e;
    }
    return twin;
  };
  const twin = closest((e) => e.text === text) ?? closest(crossOrigin);
  if (twin) recent.splice(recent.indexOf(twin), 1);
  else if (now - raw.ts <= ECHO_KEPT_MS) recent.push({ at: now, thrown: raw.ts, text, origin: raw.origin });
  return { echo: twin !== undefined, seen: recent.slice(-ECHO_KEPT) };
}

/** Each tab's recent exception reports not matched yet, to tell an echo from a new exception (see `matchEcho`). */
export class ExceptionEchoes {
  private readonly tabs = new Map<number, SeenException[]>();

  /**
   * Whether this exception report is the twin of one the other source made (other signals never are),
   * and `keep()` to remember the comparison: the report then waits for its twin, or its twin is used
   * up. A signal dropped before it is compared (outside the scope, not recording) is not kept.
   */
  compare(raw: RawSignal, now: number, masker: TextMasker): { echo: boolean; keep(): void } {
    const tabId = raw.tabId;
    if (raw.kind !== 'exception' || tabId === null) return { echo: false, keep: () => undefined };
    const { echo, seen } = matchEcho(this.tabs.get(tabId) ?? [], raw, now, masker);
    return { echo, keep: () => void this.tabs.set(tabId, seen) };
  }

  /** The tab was closed. */
  forget(tabId: number): void {
    this.tabs.delete(tabId);
  }
}

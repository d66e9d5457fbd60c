import type { Disposition } from './signal-rules';

/** What becomes of a signal: a bundle, an entry on the timeline only, or nothing more. */
export type SignalOutcome = 'bundle' | 'record' | 'suppress';

/**
 * Why, by the check that settled it, in the order they are made. Suppressed before it could make a
 * bundle: `outside-scope`, `not-recording`, `echo`, `rule-ignores`. Put on the timeline: `rule-records`,
 * `manual`, `long-past`. Refused a bundle (see `BUNDLE_REFUSALS`): `page-quota`, `signal-quota`,
 * `packaging`, `cooldown`. Bundled: `rule-bundles` (a signal the recorder saw), `asked` (the agent,
 * a page's command, the operator), `after-packaging` (asked, once the tab's bundle being made is done).
 */
export type SignalReason =
  | 'outside-scope'
  | 'not-recording'
  | 'echo'
  | 'rule-ignores'
  | 'rule-records'
  | 'manual'
  | 'long-past'
  | 'page-quota'
  | 'signal-quota'
  | 'packaging'
  | 'cooldown'
  | 'rule-bundles'
  | 'asked'
  | 'after-packaging';

export interface SignalDecision {
  outcome: SignalOutcome;
  reason: SignalReason;
}

/** What the signal intake knows of a signal the recorder saw (CDP, `chrome.webRequest`, the page's error report). */
export interface SeenSignalFacts {
  /** Steps and signals go on the timeline: a capture level above `off`, and no pause. */
  recordsTimeline: boolean;
  /** The other source reported this exception already (`ExceptionEchoes`). */
  echo: boolean;
  /** What the signal rules make of it. */
  rule: Disposition;
  /** `persistMode: 'manual'`: a bundle only when asked for. */
  manual: boolean;
  /** An exception thrown long before it came (a debugger session attaching replays the document's earlier ones). */
  longPast: boolean;
}

/** The tab's failure gate: a bundle being packaged, the last one admitted, the cooldown. */
export interface GateFacts {
  packaging: boolean;
  /** Since the tab's last bundle was admitted, in ms; null: none (or forgotten). */
  sinceLastMs: number | null;
  cooldownMs: number;
}

/** Everything that decides whether a signal makes a bundle, gathered before deciding. */
export interface SignalFacts {
  /** The signal has no tab, or its tab is in the recording scope. */
  inScope: boolean;
  /** A signal the recorder saw; null for a bundle asked for (the agent's `fail`, a failed assertion, `runEnd`, the operator). */
  seen: SeenSignalFacts | null;
  /** A page's command asked for it: held to the page-bundle quota, and never explicit. */
  byPage: boolean;
  /** A signal the recorder saw while no agent run is active: held to the signal-bundle quota. */
  unattended: boolean;
  /** Asked for by the agent's harness or the operator, or a crash: skips the cooldown, and waits for the tab's bundle being made. */
  explicit: boolean;
  /** Whether the page-bundle and signal-bundle quotas allow one more bundle of the tab now. */
  quotas: { page: boolean; signal: boolean };
  gate: GateFacts;
}

/** Reasons a signal that was to be bundled was refused: it goes on the timeline as `suppressed`, and is counted. */
export const BUNDLE_REFUSALS: ReadonlySet<SignalReason> = new Set<SignalReason>(['page-quota', 'signal-quota', 'packaging', 'cooldown']);

const decision = (outcome: SignalOutcome, reason: SignalReason): SignalDecision => ({ outcome, reason });

/**
 * Whether a signal makes a bundle: the recording scope, then (for a signal the recorder saw) the
 * recording mode, the other source's report of the same exception, the signal rules and
 * `persistMode`; then the page's quotas, and the tab's failure gate (a bundle being packaged, the
 * cooldown). One storm of failures makes one bundle; a crash or an explicit request is no storm's
 * repeat and skips the cooldown, but never runs beside the tab's bundle being made: it waits for it.
 */
export function decideSignal(facts: SignalFacts): SignalDecision {
  if (!facts.inScope) return decision('suppress', 'outside-scope');
  const seen = facts.seen;
  if (seen) {
    if (!seen.recordsTimeline) return decision('suppress', 'not-recording');
    if (seen.echo) return decision('suppress', 'echo');
    if (seen.rule === 'ignore') return decision('suppress', 'rule-ignores');
    if (seen.rule === 'record') return decision('record', 'rule-records');
    if (seen.manual) return decision('record', 'manual');
    // A bundle now would not show it: it goes on the timeline at its time.
    if (seen.longPast) return decision('record', 'long-past');
  }
  if (facts.byPage && !facts.quotas.page) return decision('suppress', 'page-quota');
  if (facts.unattended && !facts.quotas.signal) return decision('suppress', 'signal-quota');
  // A page's failure is never explicit, whatever its caller says: the cooldown applies to it.
  const explicit = facts.explicit && !facts.byPage;
  const { packaging, sinceLastMs, cooldownMs } = facts.gate;
  if (packaging) return explicit ? decision('bundle', 'after-packaging') : decision('suppress', 'packaging');
  if (!explicit && sinceLastMs !== null && sinceLastMs < cooldownMs) return decision('suppress', 'cooldown');
  return decision('bundle', seen ? 'rule-bundles' : 'asked');
}

/**
 * Whether the decision went as far as comparing the signal with the other source's exception
 * reports: then that comparison is kept (the report waits for its twin, or its twin is used up).
 */
export function comparedForEcho(decision: SignalDecision): boolean {
  return decision.reason !== 'outside-scope' && decision.reason !== 'not-recording';
}

/** The log's words for a refusal by the tab's failure gate. */
export function gateRefusalText(reason: 'packaging' | 'cooldown', gate: Pick<GateFacts, 'sinceLastMs'>): string {
  return reason === 'packaging' ? 'a bundle for this tab is being packaged' : `cooldown: last bundle for this tab ${gate.sinceLastMs} ms ago`;
}

import type { BundleSummary, BundleTrigger } from '../../schemas/api';
import type { FailureSignal } from '../../schemas/failure';

/** Who asked for a bundle, from where its signal came: a page's command, the agent, the operator, or a signal the recorder saw. */
export function bundleTrigger(origin: FailureSignal['origin']): BundleTrigger {
  switch (origin) {
    case 'page':
    case 'agent':
    case 'operator':
      return origin;
    default:
      return 'signal';
  }
}

/**
 * Whether a failure signal's bundle is unattended: a signal the recorder saw (an exception, a 5xx, a
 * crash) while no agent run is active. During the agent's run it is what the agent wants; without
 * one, the page (or the site the operator browses) provoked it, and it follows a page's rules.
 */
export function isUnattendedSignal(origin: FailureSignal['origin'], agentRunActive: boolean): boolean {
  return bundleTrigger(origin) === 'signal' && !agentRunActive;
}

/**
 * Whether a stored bundle follows a page's rules: one a page's command triggered, or an unattended
 * signal's. Such a bundle is deleted before any other (a page's is never downloaded on its own either).
 */
export function heldToPageRules(summary: Pick<BundleSummary, 'trigger' | 'unattended'>): boolean {
  return summary.trigger === 'page' || summary.unattended === true;
}

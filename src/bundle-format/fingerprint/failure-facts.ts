import type { FailureSignal } from '../../../schemas/failure';
import type { Step } from '../../../schemas/steps';

/** A step as the writer has it and as a tolerant reader reads it. */
export interface FactStep {
  ts: number;
  kind: string;
  action: string;
  target: { tag: string; role?: string; name?: string } | string | null;
}
import type { FailureFacts } from './fingerprint';

/** Steps that are an action of the agent's (observed in the page or told by the agent): not signals, marks or runs. */
const ACTION_KINDS: ReadonlySet<string> = new Set<Step['kind']>(['click', 'input', 'change', 'key', 'navigate', 'submit', 'agent']);

/** The last action at or before the failure, or null. */
export function lastActionBefore(steps: readonly FactStep[], failureTs: number): FailureFacts['lastStep'] {
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i]!;
    if (step.ts > failureTs || !ACTION_KINDS.has(step.kind)) continue;
    const target = step.target;
    return { action: step.action, target: target === null || typeof target === 'string' ? target : { tag: target.tag, role: target.role, name: target.name } };
  }
  return null;
}

/**
 * What a bundle knows of its failure: the writer has the signal and the steps, a reader has them in
 * `diagnostics.json` (`failure`) and `steps.json`; both come here, so both compute the same fingerprint.
 */
export function failureFacts(failure: Pick<FailureSignal, 'reason' | 'message' | 'url' | 'stack' | 'request' | 'ts'>, steps: readonly FactStep[]): FailureFacts {
  return {
    reason: failure.reason,
    message: failure.message,
    url: failure.url,
    stack: failure.stack,
    request: failure.request === null ? null : { method: failure.request.method, url: failure.request.url, status: failure.request.status },
    lastStep: lastActionBefore(steps, failure.ts),
  };
}

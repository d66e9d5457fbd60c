import type { FailureSignal } from '../../../schemas/failure';
import type { Step } from '../../../schemas/steps';
import type { FailureFacts } from './fingerprint';

/** Steps that are an action of the agent's (observed in the page or told by the agent): not signals, marks or runs. */
const ACTION_KINDS: ReadonlySet<Step['kind']> = new Set(['click', 'input', 'change', 'key', 'navigate', 'submit', 'agent']);

/** The last action at or before the failure, or null. */
export function lastActionBefore(steps: readonly Pick<Step, 'ts' | 'kind' | 'action' | 'target'>[], failureTs: number): FailureFacts['lastStep'] {
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
export function failureFacts(failure: Pick<FailureSignal, 'reason' | 'message' | 'url' | 'stack' | 'request' | 'ts'>, steps: readonly Pick<Step, 'ts' | 'kind' | 'action' | 'target'>[]): FailureFacts {
  return {
    reason: failure.reason,
    message: failure.message,
    url: failure.url,
    stack: failure.stack,
    request: failure.request === null ? null : { method: failure.request.method, url: failure.request.url, status: failure.request.status },
    lastStep: lastActionBefore(steps, failure.ts),
  };
}

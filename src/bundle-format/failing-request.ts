import type { Step } from '../../schemas/steps';

/** Signal kinds about one request: a 4xx or 5xx answer, no answer, a 2xx answer that says it failed. */
const REQUEST_KINDS: ReadonlySet<string> = new Set(['http_4xx', 'http_5xx', 'network_failure', 'app_error']);

/**
 * The last request that failed or said it failed (`app_error`), from the bundle's signal steps (those
 * the signal rules did not ignore), with its position in `steps.json`; null when there is none.
 */
export function lastFailingRequest(steps: readonly Step[]): { step: Step; index: number } | null {
  for (let index = steps.length - 1; index >= 0; index--) {
    const step = steps[index]!;
    if (step.kind === 'signal' && step.detail?.request_url !== undefined && REQUEST_KINDS.has(step.detail.signal_kind ?? '')) return { step, index };
  }
  return null;
}

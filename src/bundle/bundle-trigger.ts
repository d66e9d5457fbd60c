import type { BundleTrigger } from '../../schemas/api';
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

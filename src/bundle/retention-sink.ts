import type { Clock } from '../shared/clock';
import type { BundleHold, BundleSink, BundleStore } from './ports';
import { enforceRetention, retentionPolicy } from './retention';

/** Deletes the stored bundles the retention settings no longer allow, the new one counted, except those `hold` keeps. */
export function retentionSink(bundles: BundleStore, clock: Clock, hold?: BundleHold): BundleSink {
  return {
    name: 'retention',
    async afterStore(_bundle, { settings }) {
      await enforceRetention(bundles, clock.now(), retentionPolicy(settings), hold);
    },
  };
}

import type { Clock } from '../shared/clock';
import type { BundleSink, BundleStore } from './ports';
import { enforceRetention, retentionPolicy } from './retention';

/** Deletes the stored bundles the retention settings no longer allow, the new one counted. */
export function retentionSink(bundles: BundleStore, clock: Clock): BundleSink {
  return {
    name: 'retention',
    async afterStore(_bundle, { settings }) {
      await enforceRetention(bundles, clock.now(), retentionPolicy(settings));
    },
  };
}

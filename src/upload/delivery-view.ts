import type { BundleUpload, UploadProbeResult, UploadSettings, UploadStatus } from '../../schemas/upload';
import type { Settings } from '../../schemas/settings';
import type { BundleStore } from '../bundle/ports';
import { retentionPolicy, selectExpiredBundles } from '../bundle/retention';
import type { Clock } from '../shared/clock';
import { awaitsDelivery } from './outbox';
import type { Fetch, OutboxStore } from './ports';
import { probeUpload } from './probe';
import { bundleUpload, uploadStatus } from './upload-status';

/**
 * Delivery as the rest of the recorder reads it: `status().upload`, each bundle's delivery state in
 * `listBundles()`, and the bundles local retention must keep because they are not delivered yet.
 */
export function deliveryView(outbox: OutboxStore, bundles: BundleStore, clock: Clock, managed: () => boolean, fetchFn: Fetch, inMemoryOnly: (bundleId: string) => boolean = () => false) {
  const heldIds = async (): Promise<ReadonlySet<string>> => new Set((await outbox.list()).filter(awaitsDelivery).map((e) => e.bundleId));
  return {
    heldIds,
    /** "Test connection" with these settings. */
    probe: (upload: UploadSettings): Promise<UploadProbeResult> => probeUpload(upload, fetchFn, clock),
    async states(): Promise<ReadonlyMap<string, BundleUpload>> {
      return new Map((await outbox.list()).map((e) => [e.bundleId, bundleUpload(e)]));
    },
    async status(settings: Settings): Promise<UploadStatus> {
      const [entries, stored] = await Promise.all([outbox.list(), bundles.list()]);
      const held = new Set(entries.filter(awaitsDelivery).map((e) => e.bundleId));
      const heldByRetention = selectExpiredBundles(stored, clock.now(), retentionPolicy(settings)).filter((id) => held.has(id)).length;
      const memoryOnly = entries.filter((e) => (e.state === 'pending' || e.state === 'uploading') && inMemoryOnly(e.bundleId)).length;
      return uploadStatus(entries, settings.upload.mode, managed(), heldByRetention, memoryOnly);
    },
  };
}

/**
 * When delivery passes run: now when asked (`kick`), and again when the next retry is due. Waits under
 * `alarmFloorMs` are timers in the worker; longer ones are left to the recorder's periodic alarm (a
 * stopped worker forgets its timers; the alarm wakes it and kicks again).
 */
export function deliveryTimer(run: () => Promise<number | null>, clock: Clock, log: (message: string) => void, alarmFloorMs = 30_000) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const kick = (): void => {
    clearTimeout(timer);
    timer = undefined;
    run().then(
      (next) => {
        if (next === null) return;
        const wait = Math.max(0, next - clock.now());
        if (wait < alarmFloorMs) timer = setTimeout(kick, wait);
      },
      (error: unknown) => log(`[afr] upload pass failed: ${String(error)}`),
    );
  };
  return { kick };
}

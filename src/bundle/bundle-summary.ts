import type { BundleSummary } from '../../schemas/api';
import type { FailureSignal } from '../../schemas/failure';
import type { Manifest } from '../../schemas/manifest';
import { bundleTrigger } from './bundle-trigger';

/** The entry a stored bundle gets in the list of bundles (not downloaded yet). */
export function bundleSummary(
  manifest: Pick<Manifest, 'bundle_id' | 'failure_reason' | 'failure_label' | 'tab_id'>,
  signal: Pick<FailureSignal, 'url' | 'origin'>,
  zipBytes: number,
  createdAt: number,
  unattended: boolean | undefined,
): BundleSummary {
  return {
    id: manifest.bundle_id,
    createdAt: new Date(createdAt).toISOString(),
    reason: manifest.failure_reason,
    label: manifest.failure_label,
    tabId: manifest.tab_id,
    url: signal.url,
    sizeBytes: zipBytes,
    downloadId: null,
    trigger: bundleTrigger(signal.origin),
    ...(unattended ? { unattended: true } : {}),
  };
}

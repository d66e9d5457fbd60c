import type { Diagnostics } from '../../schemas/diagnostics';
import type { Manifest } from '../../schemas/manifest';
import type { HarFile } from '../../schemas/network';
import type { SnapshotFile } from '../../schemas/snapshot';
import type { StepsFile } from '../../schemas/steps';

/**
 * The JSON files of a bundle, each checked against its schema. `diagnostics.json` and `snapshot.json`
 * are absent from bundles written at the `metadata` capture level: null here; so is `network.har` from
 * bundles written before the network log. `viewer.html` embeds
 * exactly this object.
 */
export interface BundleData {
  manifest: Manifest;
  steps: StepsFile;
  diagnostics: Diagnostics | null;
  snapshot: SnapshotFile | null;
  /**
   * `network.har`, when the bundle has one (absent or null: written before the network log, or of no
   * tab). `viewer.html` embeds it only when the zip holds it, so a page written before it is unchanged.
   */
  har?: HarFile | null;
}

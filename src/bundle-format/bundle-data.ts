import type { Diagnostics } from '../../schemas/diagnostics';
import type { Manifest } from '../../schemas/manifest';
import type { SnapshotFile } from '../../schemas/snapshot';
import type { StepsFile } from '../../schemas/steps';

/**
 * The JSON files of a bundle, each checked against its schema. `diagnostics.json` and `snapshot.json`
 * are absent from bundles written at the `metadata` capture level: null here. `viewer.html` embeds
 * exactly this object.
 */
export interface BundleData {
  manifest: Manifest;
  steps: StepsFile;
  diagnostics: Diagnostics | null;
  snapshot: SnapshotFile | null;
}

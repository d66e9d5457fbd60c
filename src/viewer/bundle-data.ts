import type { Diagnostics } from '../../schemas/diagnostics';
import type { Manifest } from '../../schemas/manifest';
import type { SnapshotFile } from '../../schemas/snapshot';
import type { StepsFile } from '../../schemas/steps';

/**
 * The JSON files of a bundle, as the viewer renders them. `diagnostics.json` and `snapshot.json` are
 * absent from bundles written at the `metadata` capture level: null here.
 */
export interface BundleData {
  manifest: Manifest;
  steps: StepsFile;
  diagnostics: Diagnostics | null;
  snapshot: SnapshotFile | null;
}

/** Time of the failure (or of the end of the run), ms since the epoch: `manifest.ended_at`. */
export const failureTime = (data: BundleData): number => data.diagnostics?.failure.ts ?? Date.parse(data.manifest.ended_at);

/** Where the viewer finds a bundle's binary files: object URLs in the extension, relative paths from `file://`. */
export interface BundleMedia {
  /** URL of a frame named as in `manifest.frames[].name`, or null when the file is missing. */
  frameUrl(name: string): string | null;
  /** URL of `failure.mp4`, or null when the bundle has no clip. */
  clipUrl: string | null;
}

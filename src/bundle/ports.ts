import type { BundleSummary } from '../../schemas/api';
import type { Settings } from '../../schemas/settings';

/** Where finished bundles are kept (IndexedDB `bundles` + `bundleData` in production). */
export interface BundleStore {
  save(summary: BundleSummary, zip: Uint8Array): Promise<void>;
  /** Newest first. */
  list(): Promise<BundleSummary[]>;
  read(id: string): Promise<Uint8Array | undefined>;
  delete(id: string): Promise<boolean>;
  setDownloadId(id: string, downloadId: number): Promise<void>;
}

/** Newest first: by creation time (ms), then by id (ids start with the failure's UTC second). */
export function newestFirst(a: BundleSummary, b: BundleSummary): number {
  return b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id);
}

/** A bundle as it was stored: its summary and its zip. */
export interface StoredBundle {
  summary: BundleSummary;
  zip: Uint8Array;
}

/** What a sink knows of the bundle's making besides the bundle. */
export interface SinkContext {
  /** The settings the bundle was made with (those of the moment of its signal). */
  settings: Settings;
  /** `success` for a passing run bundled at `runEnd` (`persistMode: 'always'`); absent means `failure`. */
  status?: 'failure' | 'success';
}

/**
 * A destination for a bundle once it is stored (retention, the downloads folder, an upload). Sinks
 * run one after the other; one that fails is logged and costs neither the bundle nor the other sinks.
 */
export interface BundleSink {
  /** Names the sink in the log line of its failure: "[afr] <name> of <bundle id> failed: …". */
  readonly name: string;
  afterStore(bundle: StoredBundle, context: SinkContext): Promise<void>;
}

/** Bundles local retention must keep whatever its caps say (not yet delivered to object storage). */
export interface BundleHold {
  heldIds(): Promise<ReadonlySet<string>>;
}

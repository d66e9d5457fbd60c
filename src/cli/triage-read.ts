import { FailureGroupFolder, type FailureGroup } from '../triage/failure-groups';
import { folderSource } from './bundle-folder';
import type { BundleSource } from './bundle-source';
import { parseS3Url, type FleetStore, type S3Location } from './fleet';
import { folderFleetStore, isIndexFolder } from './folder-fleet-store';
import { scanIndex, type CompactedDay } from './index-scan';
import { SkipTally } from './skip-tally';
import { scanBundleFolder, triageRecordOfIndex } from './triage-records';

/** What triage reads and how: the location, the window, the filters. */
export interface TriageQuery {
  /** `s3://bucket/prefix`, a local copy of one (a folder with `index/`), or a folder of bundle zips. */
  location: string;
  since: number;
  until: number;
  reason?: string | undefined;
  agent?: string | undefined;
}

export interface TriageSources {
  /** The bundles to fold when the location is not a bucket (the MCP server's); default: the zips of the folder `location`. */
  bundles?: BundleSource;
  /** The bucket, asked for only when the location is `s3://`. */
  fleetStore?(): Promise<FleetStore>;
  /** Compacted days of a store (`index-compact/`), when the reader can read Parquet. */
  compacted?(store: FleetStore, at: S3Location): Promise<CompactedDay | undefined>;
  /** Called often; a progress line is drawn from it (throttled by the caller). */
  progress?(text: string): void;
}

export interface TriageResult {
  groups: FailureGroup[];
  failures: number;
  /** Index objects left out, by kind. */
  skipped: SkipTally;
  /** Bundles of a folder that could not be read, one line each. */
  unreadable: string[];
  /** Where the bundles are: the store and location of an index read (for links), null for a folder of zips. */
  index: { store: FleetStore; at: S3Location; bucket: boolean } | null;
}

/**
 * Reads the failures of the window and the window of the same length before it (the baseline of NEW
 * and GROWING) and folds them into groups as they stream in: from a bucket's index (its compacted days
 * and the loose objects of the others), a local copy of one, or a folder of bundles.
 */
export async function readFailureGroups(query: TriageQuery, sources: TriageSources): Promise<TriageResult> {
  const { since, until } = query;
  const from = since - (until - since);
  const folder = new FailureGroupFolder({ since, until });
  const skipped = new SkipTally();
  const add = (record: Parameters<FailureGroupFolder['add']>[0]) => folder.add(record);
  const done = (unreadable: string[], index: TriageResult['index']): TriageResult => {
    const groups = folder.groups();
    return { groups, failures: groups.reduce((n, g) => n + g.count, 0), skipped, unreadable, index };
  };
  const matches = (reason: string, agent: string | null) => (query.reason === undefined || reason === query.reason) && (query.agent === undefined || agent === query.agent);

  let index: TriageResult['index'] = null;
  // Served bundles (the MCP server's): the location only names them.
  if (!sources.bundles && query.location.startsWith('s3://')) {
    if (!sources.fleetStore) throw new Error('this reader cannot reach object storage');
    index = { store: await sources.fleetStore(), at: parseS3Url(query.location), bucket: true };
  } else if (!sources.bundles && (await isIndexFolder(query.location))) {
    index = { store: folderFleetStore(query.location), at: { bucket: '', prefix: '' }, bucket: false };
  }
  if (index) {
    const compacted = await sources.compacted?.(index.store, index.at);
    await scanIndex(index.store, index.at, { since: from, until, reason: query.reason, agent: query.agent }, {
      skipped,
      ...(compacted ? { compacted } : {}),
      onRecord: (r) => {
        const record = triageRecordOfIndex(r);
        if (record) add(record);
      },
      onProgress: (p) => sources.progress?.(`${p.read.toLocaleString('en')} index objects read (day ${Math.min(p.days + 1, p.dayCount)} of ${p.dayCount}), ${skipped.total} left out`),
    });
    return done([], index);
  }
  const unreadable = await scanBundleFolder(
    sources.bundles ?? folderSource(query.location),
    from,
    until,
    (record) => {
      if (matches(record.reason, record.agent)) add(record);
    },
    (read) => sources.progress?.(`${read.toLocaleString('en')} bundles read`),
  );
  return done(unreadable, null);
}

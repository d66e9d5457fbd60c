import type { UploadIndexRecord } from '../../schemas/upload';
import { failureFacts } from '../bundle-format/fingerprint/failure-facts';
import { failureSignature, fingerprintOf, signatureLine, type FailureSignature } from '../bundle-format/fingerprint/fingerprint';
import { openBundle } from '../reads/open-bundle';
import type { TriageRecord } from '../triage/failure-groups';
import type { BundleSource } from './bundle-source';
import { forEachBounded } from '../shared/bounded-pool';
import { errorMessage } from '../shared/error-message';

/*
 * The failures `afr triage` folds, from a bucket's index objects or from a folder of bundles. A
 * record written before fingerprints gets one from what it has (the reason and the page), so old and
 * new failures of one kind on one page still meet; a bundle is fingerprinted from its own files, by
 * the same rules the recorder applied when it wrote it.
 */

function triageRecord(signature: FailureSignature, fields: Omit<TriageRecord, 'fingerprint' | 'signature' | 'page'>, fingerprint?: string): TriageRecord {
  return { ...fields, fingerprint: fingerprint ?? fingerprintOf(signature), signature: signatureLine(signature), page: signature.page };
}

/** The triage record of an index object; null for a passing run's bundle (no failure). */
export function triageRecordOfIndex(r: UploadIndexRecord): TriageRecord | null {
  if (r.status !== 'failure') return null;
  const signature = r.signature ?? failureSignature({ reason: r.reason, message: null, url: r.url, stack: null, request: null, lastStep: null });
  const fields = { bundleId: r.bundle_id, reason: r.reason, agent: r.agent, agentVersion: r.agent_version, at: Date.parse(r.ended_at), location: r.zip_key };
  return triageRecord(signature, fields, r.signature ? r.fingerprint : undefined);
}

/** Bundles opened at once: each is unzipped in memory, so few. */
const BUNDLES_AT_ONCE = 4;

/**
 * Streams the triage records of the failure bundles in a folder ended in `[from, until]` through
 * `onRecord` (files modified earlier are not opened), a few bundles at once; a zip that cannot be read
 * is named in the lines returned, one each.
 */
export async function scanBundleFolder(source: BundleSource, from: number, until: number, onRecord: (record: TriageRecord) => void, onProgress?: (read: number) => void): Promise<string[]> {
  const { bundles, notes } = await source.list();
  const skipped = [...notes];
  let read = 0;
  await forEachBounded(bundles.filter((entry) => Date.parse(entry.created_at) >= from), BUNDLES_AT_ONCE, async (entry) => {
    try {
      const record = await bundleRecord(source, entry.id, from, until);
      if (record) onRecord(record);
    } catch (error) {
      skipped.push(`${entry.id}.zip: ${errorMessage(error)}`);
    }
    onProgress?.(++read);
  });
  return skipped;
}

async function bundleRecord(source: BundleSource, id: string, from: number, until: number): Promise<TriageRecord | null> {
  const reader = await openBundle(await source.read(id));
  if (reader.manifest.status !== 'failure') return null;
  if (reader.failureTs < from || reader.failureTs > until) return null;
  const diagnostics = await reader.diagnostics();
  const steps = await reader.steps().catch(() => []);
  const failure = diagnostics?.failure;
  const facts = failure
    ? failureFacts({ ...failure, request: failure.request ?? null }, steps)
    : { reason: reader.manifest.failure_reason, message: reader.manifest.failure_message, url: reader.manifest.url_at_failure, stack: null, request: null, lastStep: null };
  const run = reader.manifest.run;
  return triageRecord(failureSignature(facts), { bundleId: reader.manifest.bundle_id, reason: facts.reason, agent: run?.agent ?? null, agentVersion: run?.agent_version ?? null, at: reader.failureTs, location: `${id}.zip` });
}

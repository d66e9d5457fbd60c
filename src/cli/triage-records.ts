import type { UploadIndexRecord } from '../../schemas/upload';
import { failureFacts } from '../bundle-format/fingerprint/failure-facts';
import { failureSignature, fingerprintOf, signatureLine, type FailureSignature } from '../bundle-format/fingerprint/fingerprint';
import { openBundle } from '../reads/open-bundle';
import type { TriageRecord } from '../triage/failure-groups';
import type { BundleSource } from './bundle-source';
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

/** Triage records of index objects (failures only: a passing run's bundle is no failure). */
export function recordsOfIndex(records: readonly UploadIndexRecord[]): TriageRecord[] {
  return records
    .filter((r) => r.status === 'failure')
    .map((r) => {
      const signature = r.signature ?? failureSignature({ reason: r.reason, message: null, url: r.url, stack: null, request: null, lastStep: null });
      const fields = { bundleId: r.bundle_id, reason: r.reason, agent: r.agent, agentVersion: r.agent_version, at: Date.parse(r.ended_at), location: r.zip_key };
      return triageRecord(signature, fields, r.signature ? r.fingerprint : undefined);
    });
}

/**
 * Triage records of the failure bundles in a folder ended in `[from, until]` (files modified earlier
 * are not opened); a zip that cannot be read is named in `skipped`, one line each.
 */
export async function recordsOfFolder(source: BundleSource, from: number, until: number): Promise<{ records: TriageRecord[]; skipped: string[] }> {
  const { bundles, notes } = await source.list();
  const records: TriageRecord[] = [];
  const skipped = [...notes];
  for (const entry of bundles) {
    if (Date.parse(entry.created_at) < from) continue;
    try {
      const reader = await openBundle(await source.read(entry.id));
      if (reader.manifest.status !== 'failure') continue;
      const diagnostics = await reader.diagnostics();
      const steps = await reader.steps().catch(() => []);
      const failure = diagnostics?.failure;
      const facts = failure
        ? failureFacts({ ...failure, request: failure.request ?? null }, steps)
        : { reason: reader.manifest.failure_reason, message: reader.manifest.failure_message, url: reader.manifest.url_at_failure, stack: null, request: null, lastStep: null };
      if (reader.failureTs < from || reader.failureTs > until) continue;
      const run = reader.manifest.run;
      records.push(triageRecord(failureSignature(facts), { bundleId: reader.manifest.bundle_id, reason: facts.reason, agent: run?.agent ?? null, agentVersion: run?.agent_version ?? null, at: reader.failureTs, location: `${entry.id}.zip` }));
    } catch (error) {
      skipped.push(`${entry.id}.zip: ${errorMessage(error)}`);
    }
  }
  return { records, skipped };
}


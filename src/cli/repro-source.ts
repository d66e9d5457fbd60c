import { HarFileSchema } from '../../schemas/network';
import { NETWORK_HAR_FILE } from '../bundle-format/file-names';
import { parseJsonFile } from '../bundle-format/parse-files';
import { MAX_JSON_BYTES, type BundleReader } from '../reads/open-bundle';
import type { ReproFailure, ReproSource, ReproStep } from '../repro/ports';

/**
 * What `afr repro` needs of an opened bundle: its steps, the failure (diagnostics, else the manifest's
 * words), the viewport (the frames', else the snapshot's), `network.har` when it is there and reads.
 * A missing or unreadable optional file is null, for the plan to say what is missing.
 */
export async function reproSource(reader: BundleReader): Promise<ReproSource> {
  const { manifest } = reader;
  const steps: ReproStep[] = (await reader.steps()).map((s) => ({
    ts: s.ts,
    url: s.url ?? null,
    source: s.source,
    kind: s.kind,
    action: s.action,
    target: s.target,
    value: s.value,
    value_redacted: s.value_redacted,
    label: s.label,
    ...(s.goal !== undefined ? { goal: s.goal } : {}),
    ...(s.synthetic ? { synthetic: true } : {}),
  }));
  const diagnostics = await reader.diagnostics().catch(() => null);
  const signal = diagnostics?.failure;
  const failure: ReproFailure | null =
    manifest.status === 'success'
      ? null
      : signal
        ? { kind: signal.kind ?? signal.reason, label: signal.label, message: signal.message, ts: signal.ts, http_status: signal.http_status, request: signal.request ?? null }
        : { kind: manifest.failure_reason, label: manifest.failure_label, message: manifest.failure_message, ts: reader.failureTs, http_status: null, request: null };
  const frameViewport = [...manifest.frames].reverse().find((f) => f.viewport)?.viewport;
  const snapshot = frameViewport ? null : await reader.snapshot().catch(() => null);
  const snapViewport = (snapshot?.snapshot as { viewport?: { width?: unknown; height?: unknown } } | null | undefined)?.viewport;
  const viewport = frameViewport
    ? { width: frameViewport.width, height: frameViewport.height }
    : typeof snapViewport?.width === 'number' && typeof snapViewport.height === 'number'
      ? { width: snapViewport.width, height: snapViewport.height }
      : null;
  let har = null;
  // A HAR past the readers' bound is left out like a missing one (the plan says so).
  if (reader.archive.has(NETWORK_HAR_FILE) && (reader.archive.declaredBytes(NETWORK_HAR_FILE) ?? Infinity) <= MAX_JSON_BYTES) {
    const bytes = await reader.archive.read(NETWORK_HAR_FILE);
    const read = bytes ? parseJsonFile({ files: new Map([[NETWORK_HAR_FILE, bytes]]), zipBytes: reader.archive.zipBytes }, NETWORK_HAR_FILE, HarFileSchema) : null;
    if (read?.ok) har = read.value;
  }
  return {
    bundleId: manifest.bundle_id,
    steps,
    failure,
    viewport,
    har,
    hasTimeline: (await reader.steps()).some((s) => typeof s.snapshot === 'string'),
  };
}

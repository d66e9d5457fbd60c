import { describe, expect, it } from 'vitest';
import { makeBundleData } from '../../test/fakes/viewer-bundle';
import { BUNDLE_JSON_FILES } from './file-registry';
import { TolerantDiagnosticsSchema, TolerantManifestSchema, TolerantSnapshotSchema, TolerantStepsSchema } from './tolerant-schemas';

describe('tolerant readings', () => {
  const data = makeBundleData();

  it('read what the recorder writes', () => {
    expect(TolerantManifestSchema.parse(data.manifest).frames).toHaveLength(data.manifest.frames.length);
    expect(TolerantStepsSchema.parse(data.steps).steps).toHaveLength(data.steps.steps.length);
    expect(TolerantDiagnosticsSchema.parse(data.diagnostics).failure.ts).toBe(data.diagnostics!.failure.ts);
    expect(TolerantSnapshotSchema.parse(data.snapshot).snapshot?.title).toBe(data.snapshot!.snapshot!.title);
  });

  it('read files of another recorder version that the strict schemas refuse', () => {
    const manifest = { ...data.manifest, status: 'cancelled', added_later: true };
    const steps = { ...data.steps, steps: [{ ...data.steps.steps[0]!, kind: 'hover', source: 'replay' }] };
    const { kind: _kind, ...olderFailure } = data.diagnostics!.failure;
    const { console_errors: _c, failed_requests: _f, ...olderDiagnostics } = { ...data.diagnostics!, failure: olderFailure };
    expect(BUNDLE_JSON_FILES.manifest.schema.safeParse(manifest).success).toBe(false);
    expect(BUNDLE_JSON_FILES.steps.schema.safeParse(steps).success).toBe(false);
    expect(BUNDLE_JSON_FILES.diagnostics.schema.safeParse(olderDiagnostics).success).toBe(false);
    expect(TolerantManifestSchema.parse(manifest).status).toBe('cancelled');
    expect(TolerantStepsSchema.parse(steps).steps[0]!.kind).toBe('hover');
    expect(TolerantDiagnosticsSchema.parse(olderDiagnostics).console_errors).toBeUndefined();
  });
});

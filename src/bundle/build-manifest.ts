import type { FailureSignal } from '../../schemas/failure';
import type { Step } from '../../schemas/steps';
import { failureFacts } from '../bundle-format/fingerprint/failure-facts';
import { failureSignature, fingerprintOf } from '../bundle-format/fingerprint/fingerprint';
import { MANIFEST_VERSION, manifestSettings } from '../../schemas/manifest';
import type { Settings } from '../../schemas/settings';
import type { ClipOutcome } from './clip-outcome';
import type { BundleOptions } from './bundle-request';
import type { BundleContents } from './write-bundle';

const iso = (ts: number) => new Date(ts).toISOString();

/** Everything `manifest.json` says besides its files (the writer adds those, the frames among them). */
export interface ManifestInput {
  bundleId: string;
  runId: string;
  signal: FailureSignal;
  settings: Settings;
  options: Pick<BundleOptions, 'status' | 'level' | 'run' | 'outcome'>;
  /** When the bundle's first frame was taken, or null: none. */
  firstFrameTs: number | null;
  /** When the bundle's first step was taken, or null: none. */
  firstStepTs: number | null;
  /** The bundle's steps, oldest first: the last action before the failure takes part in its fingerprint. */
  steps: readonly Step[];
  /** Sensitive regions filled in the bundle's frames. */
  maskedRegions: number;
  /** Frames captured and not stored since the recorder started. */
  droppedFrames: number;
  clip: ClipOutcome | null;
  extension: { name: string; version: string };
}

/**
 * The manifest of a bundle: what failed and where, the run, the clip, how frames were taken, and the
 * settings in force. It starts at its first frame or step, whichever came first, and ends at the failure.
 */
export function buildManifest(input: ManifestInput): BundleContents['manifest'] {
  const { signal, settings, options, clip } = input;
  const startedAt = Math.min(input.firstFrameTs ?? signal.ts, input.firstStepTs ?? signal.ts);
  const signature = options.status === 'failure' ? failureSignature(failureFacts(signal, input.steps)) : null;
  return {
    version: MANIFEST_VERSION,
    bundle_id: input.bundleId,
    run_id: input.runId,
    status: options.status,
    started_at: iso(startedAt),
    ended_at: iso(signal.ts),
    failure_reason: signal.reason,
    failure_label: signal.label,
    failure_message: signal.message,
    url_at_failure: signal.url,
    tab_id: signal.tab_id,
    step_count: input.steps.length,
    buffer_seconds: settings.bufferSeconds,
    capture_level: options.level,
    run: {
      agent: options.run?.agent ?? null,
      agent_version: options.run?.agentVersion ?? null,
      task: options.run?.task ?? null,
      started_at: options.run ? iso(options.run.startedAt) : null,
      outcome: options.outcome,
    },
    clip: clip?.ok ? { name: 'failure.mp4', duration_seconds: clip.durationSeconds, encoder: clip.encoder } : null,
    capture: {
      source: settings.captureSource,
      fps: settings.fps,
      interval_ms: settings.captureIntervalMs,
      masked_regions: input.maskedRegions,
      dropped_frames: input.droppedFrames,
      jpeg_quality: settings.jpegQuality,
      max_buffer_bytes: settings.maxBufferBytes,
    },
    // Never the redaction rules themselves: a bundle is shared, they say what its owner keeps secret.
    settings: manifestSettings(settings),
    extension: input.extension,
    ...(signature ? { fingerprint: fingerprintOf(signature), signature } : {}),
  };
}

import { frameSpanSeconds } from '../bundle-format/frame-time';
import { failureFrame, failureStep, stepNumber } from '../bundle-format/story';
import { stackLines } from '../bundle-format/views';
import type { BundleReader } from './open-bundle';
import type { ReadStep } from './read-schemas';
import { changeWords, lastSteps, type StepView } from './steps';

/** Steps of the summary: the last few before the failure. */
const SUMMARY_STEPS = 5;
const SUMMARY_STACK_LINES = 5;
const SUMMARY_CHANGES = 3;

/** The first read of a bundle: the failure, what the bundle holds, the last steps; ids for the rest. */
export interface SummaryView {
  bundle_id: string;
  run_id: string;
  status: string;
  failure: { reason: string; kind: string | null; label: string | null; message: string | null; url: string | null; time: string; http_status: number | null; stack: string[] };
  recording: { started_at: string; span_seconds: number; zip_bytes: number };
  page: { title: string; url: string; node_count: number; truncated: boolean } | null;
  counts: { steps: number; frames: number; console_errors: number | null; failed_requests: number | null; warnings: number | null };
  /** The last steps, oldest first. */
  last_steps: StepView[];
  /** The last three changes the steps made to the page, in plain words, oldest first (as summary.md has them). */
  changes: { step: number; action: string; description: string }[];
  /** 1-based index of the screen at the failure (`bundle-format/story.ts`: the frame on screen then; what to look at first); null without frames. */
  failure_frame: number | null;
  /** Number of the step that failed (`bundle-format/story.ts`: the last one at or before the failure with a `fail` outcome, else the last one at or before it); null without steps. */
  failure_step: number | null;
  /** Optional files that could not be read, one line each; what they would add is left out. */
  unreadable: string[];
}

/**
 * The summary of a bundle. Inflates the JSON files only: a bundle of hundreds of megabytes of frames
 * costs its central directory and a few small files.
 */
export async function readSummary(reader: BundleReader): Promise<SummaryView> {
  const { manifest } = reader;
  // A broken optional file is named, and the summary goes on with the rest.
  const unreadable: string[] = [];
  const tolerate = <T>(read: Promise<T>) => read.catch((error: unknown) => (unreadable.push(error instanceof Error ? error.message : String(error)), null));
  const diagnostics = await tolerate(reader.diagnostics());
  const snapshot = await tolerate(reader.snapshot());
  const steps = await reader.steps();
  const atFailure = failureFrame(manifest.frames, reader.failureTs);
  const failed = failureStep(steps, reader.failureTs);
  return {
    bundle_id: manifest.bundle_id,
    run_id: manifest.run_id,
    status: manifest.status,
    failure: {
      reason: manifest.failure_reason,
      kind: diagnostics?.failure.kind ?? null,
      label: manifest.failure_label,
      message: manifest.failure_message,
      url: manifest.url_at_failure,
      time: manifest.ended_at,
      http_status: diagnostics?.failure.http_status ?? null,
      stack: stackLines(diagnostics?.failure.stack ?? null, SUMMARY_STACK_LINES),
    },
    recording: { started_at: manifest.started_at, span_seconds: frameSpanSeconds(manifest.frames), zip_bytes: reader.archive.zipBytes },
    page: snapshot?.snapshot ? { title: snapshot.snapshot.title, url: snapshot.snapshot.url, node_count: snapshot.snapshot.node_count, truncated: snapshot.snapshot.truncated } : null,
    counts: {
      steps: steps.length,
      frames: manifest.frames.length,
      console_errors: diagnostics ? (diagnostics.console_errors?.length ?? 0) : null,
      failed_requests: diagnostics ? (diagnostics.failed_requests?.length ?? 0) : null,
      warnings: diagnostics ? diagnostics.warnings.length : null,
    },
    last_steps: await lastSteps(reader, SUMMARY_STEPS),
    changes: lastChanges(steps),
    failure_frame: atFailure < 0 ? null : atFailure + 1,
    failure_step: failed < 0 ? null : stepNumber(failed),
    unreadable,
  };
}

/** The last three steps that changed something, as `summary.md` picks them. */
function lastChanges(steps: readonly ReadStep[]): SummaryView['changes'] {
  const changed = steps.flatMap((s, i) => {
    const description = changeWords(s.changes);
    return description !== null && description !== 'nothing changed' ? [{ step: i + 1, action: s.action, description }] : [];
  });
  return changed.slice(-SUMMARY_CHANGES);
}

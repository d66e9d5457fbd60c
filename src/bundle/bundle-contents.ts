import type { Diagnostics } from '../../schemas/diagnostics';
import type { HarFile } from '../../schemas/network';
import type { AgentFile } from '../../schemas/agent-calls';
import type { SnapshotCaptureResult } from '../../schemas/messages';
import { SNAPSHOT_FILE_VERSION } from '../../schemas/snapshot';
import { STEPS_FILE_VERSION, type Step } from '../../schemas/steps';
import { outlineBundle } from '../bundle-format/page-outline';
import type { ClipOutcome } from './clip-outcome';
import type { StepPages } from './step-pages';
import type { BundleContents } from './write-bundle';

/** What goes into a bundle's files, gathered and built. */
export interface ContentsInput {
  bundleId: string;
  manifest: BundleContents['manifest'];
  /** Capture level `trace` and up: `snapshot.json`, `diagnostics.json`, `outline.md`, the pages at the steps. */
  withSnapshot: boolean;
  snapshot: SnapshotCaptureResult;
  diagnostics: Diagnostics;
  steps: readonly Step[];
  /** The pages at the steps and the page before the first, or null: none could be laid out. */
  pages: StepPages | null;
  frames: BundleContents['frames'];
  clip: ClipOutcome | null;
  /** The failing tab's requests in the window (`network.har`), or null. */
  har?: HarFile | null;
  /** The agent's model and tool calls in the window (`agent.json`), or null. */
  agent?: AgentFile | null;
  viewerScript?: string;
}

/**
 * The files of a bundle for `writeBundle`. Below capture level `trace` a bundle has no snapshot,
 * diagnostics, outline or pages; a failed clip is left out (the diagnostics say why).
 */
export function bundleContents(input: ContentsInput): BundleContents {
  const { bundleId, withSnapshot, snapshot, pages, steps, clip } = input;
  return {
    manifest: input.manifest,
    snapshot: withSnapshot
      ? {
          version: SNAPSHOT_FILE_VERSION,
          bundle_id: bundleId,
          snapshot: snapshot.ok ? snapshot.snapshot : null,
          error: snapshot.ok ? null : snapshot.error,
          ...(pages?.previous ? { previous: pages.previous } : {}),
        }
      : null,
    stepSnapshots: pages?.files ?? [],
    // `outline.md`: the page at the failure (`snapshot.json`) and at the last action (its page in `snapshots/`).
    outline: withSnapshot ? outlineBundle(snapshot.ok ? snapshot.snapshot : null, steps, new Map(pages?.files.map((f) => [f.name, f.file]))) : undefined,
    diagnostics: withSnapshot ? input.diagnostics : null,
    steps: { version: STEPS_FILE_VERSION, bundle_id: bundleId, steps: [...steps] },
    har: input.har ?? null,
    agent: input.agent ?? null,
    frames: input.frames,
    clip: clip?.ok ? clip.mp4 : null,
    viewerScript: input.viewerScript,
  };
}

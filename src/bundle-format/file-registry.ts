import type { z } from 'zod';
import { DiagnosticsSchema, type Diagnostics } from '../../schemas/diagnostics';
import { ManifestSchema, type Manifest } from '../../schemas/manifest';
import { SnapshotFileSchema, type SnapshotFile } from '../../schemas/snapshot';
import { StepsFileSchema, type StepsFile } from '../../schemas/steps';
import { HarFileSchema, type HarFile } from '../../schemas/network';
import { AgentFileSchema, type AgentFile } from '../../schemas/agent-calls';
import { modernizeManifest } from './modernize-manifest';
import { StepSnapshotFileSchema, type StepSnapshotFile } from '../../schemas/timeline';
import { AGENT_FILE, CLIP_FILE, DIAGNOSTICS_FILE, MANIFEST_FILE, NETWORK_HAR_FILE, OUTLINE_FILE, SNAPSHOT_FILE, STEPS_FILE, SUMMARY_FILE, VIEWER_FILE, isFrameFileName, isStepSnapshotFileName } from './file-names';

/** One JSON file of the bundle: its name, its schema, and whether every bundle has it. */
export interface BundleJsonFile<T> {
  name: string;
  schema: z.ZodType<T>;
  /**
   * `diagnostics.json` and `snapshot.json` are left out below capture level `trace`; the manifest and
   * the steps are always there.
   */
  required: boolean;
  /** Brings the JSON of an earlier version of the file to the current one, before the schema checks it. */
  modernize?: (json: unknown) => unknown;
}

/** The bundle's JSON files, in the order readers report on them. */
export const BUNDLE_JSON_FILES: {
  readonly manifest: BundleJsonFile<Manifest>;
  readonly steps: BundleJsonFile<StepsFile>;
  readonly diagnostics: BundleJsonFile<Diagnostics>;
  readonly snapshot: BundleJsonFile<SnapshotFile>;
  readonly har: BundleJsonFile<HarFile>;
  readonly agent: BundleJsonFile<AgentFile>;
} = {
  manifest: { name: MANIFEST_FILE, schema: ManifestSchema, required: true, modernize: modernizeManifest },
  steps: { name: STEPS_FILE, schema: StepsFileSchema, required: true },
  diagnostics: { name: DIAGNOSTICS_FILE, schema: DiagnosticsSchema, required: false },
  snapshot: { name: SNAPSHOT_FILE, schema: SnapshotFileSchema, required: false },
  // Absent from bundles written before the network log, and from those of no tab.
  har: { name: NETWORK_HAR_FILE, schema: HarFileSchema, required: false },
  // Only when the agent recorded calls (`afr.toolCall`, `afr.modelCall`) in the window.
  agent: { name: AGENT_FILE, schema: AgentFileSchema, required: false },
};

/**
 * The pages at each step (`snapshots/page-001.json`, capture level `trace` and up): JSON files of one
 * schema under a pattern of names, each listed in the manifest's artifacts like the fixed files.
 */
export const STEP_SNAPSHOT_FILES: { readonly pattern: string; readonly schema: z.ZodType<StepSnapshotFile>; isName(name: string): boolean } = {
  pattern: 'snapshots/page-NNN.json',
  schema: StepSnapshotFileSchema,
  isName: isStepSnapshotFileName,
};

/** A step page's text as the zip holds it: one line of JSON (a page is a big tree, indentation would double it). */
export const stepSnapshotText = (file: StepSnapshotFile): string => `${JSON.stringify(file)}\n`;

/** The modernizer of a JSON file, by its name (`manifest.json`); none for a file that never changed shape. */
export function modernizerOf(name: string): ((json: unknown) => unknown) | undefined {
  return Object.values(BUNDLE_JSON_FILES).find((f) => f.name === name)?.modernize;
}

const JSON_FILE_NAMES: readonly string[] = Object.values(BUNDLE_JSON_FILES).map((f) => f.name);

/** Files a bundle may carry beside the recorder's data; allowed, never required, not always listed in the manifest. */
export const OPTIONAL_EXTRA_FILES: readonly string[] = [VIEWER_FILE, SUMMARY_FILE, OUTLINE_FILE];

/** Whether `name` is a file the bundle format has a place for: a JSON file, a frame, the clip or an extra. */
export function isBundleFileName(name: string): boolean {
  return JSON_FILE_NAMES.includes(name) || name === CLIP_FILE || isFrameFileName(name) || isStepSnapshotFileName(name) || OPTIONAL_EXTRA_FILES.includes(name);
}

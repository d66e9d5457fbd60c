import type { z } from 'zod';
import { AGENT_FILE, DIAGNOSTICS_FILE, MANIFEST_FILE, NETWORK_HAR_FILE, SNAPSHOT_FILE, STEPS_FILE } from '../bundle-format/file-names';
import { BundleZipError, openLazyBundleZip, type LazyBundleArchive } from '../bundle-format/open-zip';
import { STEP_SNAPSHOT_FILES } from '../bundle-format/file-registry';
import { parseJsonFile } from '../bundle-format/parse-files';
import type { StepSnapshotFile } from '../../schemas/timeline';
import { TolerantHarSchema, type TolerantHar } from '../bundle-format/tolerant-har';
import { TolerantManifestSchema, type TolerantManifest } from '../bundle-format/tolerant-schemas';
import { failureTime } from '../bundle-format/views';
import { token } from '../shared/quote';
import { BundleReadError } from './errors';
import { ReadAgentSchema, type ReadAgent, ReadDiagnosticsSchema, ReadSnapshotSchema, ReadStepsSchema, type ReadDiagnostics, type ReadSnapshot, type ReadStep } from './read-schemas';

/**
 * Most bytes a JSON file of the bundle may hold for the reads to inflate it. The recorder's own files
 * are far smaller (steps are capped, the snapshot stops at 5,000 nodes); a bundle claiming more is
 * refused with one line rather than parsed.
 */
export const MAX_JSON_BYTES = 64 * 1024 * 1024;

/**
 * One bundle opened for reading: the zip's directory read and checked, the manifest parsed; the other
 * JSON files are inflated on first use and kept, and no frame or clip is inflated unless asked for.
 */
export interface BundleReader {
  archive: LazyBundleArchive;
  manifest: TolerantManifest;
  /** Time of the failure, ms since the epoch (the signal's own time, else the manifest's end). */
  failureTs: number;
  steps(): Promise<ReadStep[]>;
  /** Null when the capture level left it out. */
  diagnostics(): Promise<ReadDiagnostics | null>;
  /** Null when the capture level left it out. */
  snapshot(): Promise<ReadSnapshot | null>;
  /** `network.har`, null when the bundle has none (written before the network log, or of no tab). */
  har(): Promise<TolerantHar | null>;
  /** `agent.json`, the agent's model and tool calls; null when the bundle has none. */
  agent(): Promise<ReadAgent | null>;
  /** A page at a step (`snapshots/page-003.json`, as a step names it); null when the zip has no such page. */
  stepPage(name: string): Promise<StepSnapshotFile | null>;
}

async function readJson<T>(archive: LazyBundleArchive, name: string, schema: z.ZodType<T>): Promise<T | null> {
  const declared = archive.declaredBytes(name);
  if (declared === undefined) return null;
  if (declared > MAX_JSON_BYTES) throw new BundleReadError(`${token(name)} declares ${declared} bytes, more than the ${MAX_JSON_BYTES} afr reads`);
  const bytes = await archive.read(name);
  const read = parseJsonFile({ files: new Map(bytes ? [[name, bytes]] : []), zipBytes: archive.zipBytes }, name, schema);
  if (read.ok) return read.value;
  throw new BundleReadError(`${token(name)} is ${read.problem === 'schema' ? `not shaped like a bundle file: ${read.error}` : read.error}`.split('\n')[0]!);
}

/** Runs `read` once, on first call; later calls share its promise. */
function once<T>(read: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () => (result ??= read());
}

/**
 * Opens a bundle zip for the reads: throws `BundleReadError` with one line when the bytes are not a
 * zip, the zip is past the readers' bounds, or it is not an Agent Flight Recorder bundle.
 * @example const reader = await openBundle(bytes); (await reader.steps()).length
 */
export async function openBundle(zip: Uint8Array): Promise<BundleReader> {
  let archive: LazyBundleArchive;
  try {
    archive = await openLazyBundleZip(zip);
  } catch (error) {
    if (error instanceof BundleZipError) throw new BundleReadError(error.message);
    throw error;
  }
  if (!archive.has(MANIFEST_FILE)) throw new BundleReadError(`not an Agent Flight Recorder bundle (no ${MANIFEST_FILE} in the zip)`);
  const manifest = (await readJson(archive, MANIFEST_FILE, TolerantManifestSchema))!;
  const diagnostics = once(() => readJson(archive, DIAGNOSTICS_FILE, ReadDiagnosticsSchema));
  // The failure's own time needs diagnostics.json: read now, it is small and every view uses it.
  const pages = new Map<string, Promise<StepSnapshotFile | null>>();
  const failureTs = failureTime({ manifest, diagnostics: await diagnostics().catch(() => null) });
  return {
    archive,
    manifest,
    failureTs,
    diagnostics,
    steps: once(async () => {
      const steps = await readJson(archive, STEPS_FILE, ReadStepsSchema);
      if (!steps) throw new BundleReadError(`${STEPS_FILE} is missing from the bundle`);
      return steps.steps;
    }),
    snapshot: once(() => readJson(archive, SNAPSHOT_FILE, ReadSnapshotSchema)),
    har: once(() => readJson(archive, NETWORK_HAR_FILE, TolerantHarSchema)),
    agent: once(() => readJson(archive, AGENT_FILE, ReadAgentSchema)),
    stepPage: (name) => {
      if (!STEP_SNAPSHOT_FILES.isName(name)) return Promise.resolve(null);
      let page = pages.get(name);
      if (!page) pages.set(name, (page = readJson(archive, name, STEP_SNAPSHOT_FILES.schema)));
      return page;
    },
  };
}

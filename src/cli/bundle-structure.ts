import { AGENT_FILE, CLIP_FILE, FRAMES_DIR, MANIFEST_FILE, NETWORK_HAR_FILE, SNAPSHOT_FILE, STEPS_FILE, frameFileName } from '../bundle-format/file-names';
import { OPTIONAL_EXTRA_FILES, STEP_SNAPSHOT_FILES, isBundleFileName } from '../bundle-format/file-registry';
import type { BundleArchive } from '../bundle-format/open-zip';
import { agentCallRefProblems } from '../bundle-format/agent-call-refs';
import type { AgentFile } from '../../schemas/agent-calls';
import { readJpegSize } from '../shared/jpeg-size';
import { readMp4Duration, startsWithFtyp } from './mp4-duration';
import type { Problem } from './json-schema-check';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const objects = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

/**
 * Checks what a JSON Schema cannot: the manifest against the files actually in the zip. Reads the JSON
 * defensively (a manifest that failed its schema is still checked as far as its shape allows).
 * `json` holds the parsed JSON files; a file that is missing or not JSON is absent from it.
 */
export function checkStructure(archive: BundleArchive, json: ReadonlyMap<string, unknown>): Problem[] {
  const problems: Problem[] = [];
  const add = (file: string, pointer: string, message: string) => problems.push({ file, pointer, message });
  const manifest = json.get(MANIFEST_FILE);
  const names = [...archive.files.keys()];

  const unexpected = new Set(names.filter((n) => !isBundleFileName(n)));
  for (const name of unexpected) add(name, '', 'unexpected file (not part of the bundle format)');
  if (!isObject(manifest)) return problems;

  // Artifacts: each listed file exists with the stated size; each file (but the manifest) is listed.
  const listed = new Set<string>();
  objects(manifest.artifacts).forEach((artifact, i) => {
    if (typeof artifact.name !== 'string') return;
    listed.add(artifact.name);
    const bytes = archive.files.get(artifact.name);
    if (!bytes) add(artifact.name, `manifest.json#/artifacts/${i}`, 'listed in the manifest’s artifacts but not in the zip');
    else if (typeof artifact.size_bytes === 'number' && artifact.size_bytes !== bytes.byteLength) {
      add(artifact.name, `manifest.json#/artifacts/${i}/size_bytes`, `is ${bytes.byteLength} bytes, the manifest says ${artifact.size_bytes}`);
    }
  });
  for (const name of names) {
    if (name !== MANIFEST_FILE && !listed.has(name) && !unexpected.has(name) && !OPTIONAL_EXTRA_FILES.includes(name)) {
      add(name, '', 'not listed in manifest.json artifacts');
    }
  }

  checkFrames(archive, manifest, listed, add);
  checkClip(archive, manifest, listed, add);

  // Every file names the same bundle, and the manifest counts the steps steps.json holds.
  for (const [file, value] of json) {
    // HAR has no place for a bundle id of ours (a reader of HAR reads `log` alone).
    if (file === MANIFEST_FILE || file === NETWORK_HAR_FILE || !isObject(value) || value.bundle_id === manifest.bundle_id) continue;
    add(file, '/bundle_id', `is ${JSON.stringify(value.bundle_id)}, manifest.json says ${JSON.stringify(manifest.bundle_id)}`);
  }
  const steps = json.get(STEPS_FILE);
  if (isObject(steps) && Array.isArray(steps.steps) && typeof manifest.step_count === 'number' && steps.steps.length !== manifest.step_count) {
    add('manifest.json', '/step_count', `is ${manifest.step_count}, steps.json holds ${steps.steps.length} steps`);
  }
  checkPageReferences(archive, json, add);
  // The steps of the agent's calls and agent.json's entries point at each other.
  if (isObject(steps)) {
    const agent = json.get(AGENT_FILE);
    for (const p of agentCallRefProblems(objects(steps.steps), isObject(agent) ? (agent as unknown as AgentFile) : null)) add(p.pointer === '' ? AGENT_FILE : STEPS_FILE, p.pointer, p.message);
  }
  return problems;
}

/** The steps' `snapshot` and `changes.to`, and `snapshot.json`'s `previous`, name pages the zip holds. */
function checkPageReferences(archive: BundleArchive, json: ReadonlyMap<string, unknown>, add: Add): void {
  const check = (file: string, pointer: string, name: unknown) => {
    if (typeof name !== 'string') return;
    if (!STEP_SNAPSHOT_FILES.isName(name)) add(file, pointer, `is ${JSON.stringify(name)}, not a name of ${STEP_SNAPSHOT_FILES.pattern}`);
    else if (!archive.files.has(name)) add(file, pointer, `names ${name}, which is not in the zip`);
  };
  const steps = json.get(STEPS_FILE);
  if (isObject(steps)) {
    objects(steps.steps).forEach((step, i) => {
      check(STEPS_FILE, `/steps/${i}/snapshot`, step.snapshot);
      if (isObject(step.changes)) check(STEPS_FILE, `/steps/${i}/changes/to`, step.changes.to);
    });
  }
  const snapshot = json.get(SNAPSHOT_FILE);
  if (isObject(snapshot)) check(SNAPSHOT_FILE, '/previous', snapshot.previous);
}

type Add = (file: string, pointer: string, message: string) => void;

function checkFrames(archive: BundleArchive, manifest: Json, listed: ReadonlySet<string>, add: Add): void {
  const frameFiles = [...archive.files.keys()].filter((n) => n.startsWith(FRAMES_DIR));
  const frames = objects(manifest.frames);
  if (typeof manifest.frame_count === 'number') {
    if (manifest.frame_count !== frameFiles.length) add('manifest.json', '/frame_count', `is ${manifest.frame_count}, the zip holds ${frameFiles.length} files under ${FRAMES_DIR}`);
    if (manifest.frame_count !== frames.length) add('manifest.json', '/frames', `lists ${frames.length} frames, frame_count is ${manifest.frame_count}`);
  }
  const named = new Set<string>();
  let previousTs = -Infinity;
  frames.forEach((frame, i) => {
    if (typeof frame.name !== 'string') return;
    named.add(frame.name);
    if (frame.name !== frameFileName(i)) add('manifest.json', `/frames/${i}/name`, `is ${JSON.stringify(frame.name)}, frame ${i + 1} is ${frameFileName(i)}`);
    if (typeof frame.ts === 'number') {
      if (frame.ts < previousTs) add('manifest.json', `/frames/${i}/ts`, 'is earlier than the frame before (frames are in time order)');
      previousTs = frame.ts;
      // An entry for identical captures in a row names both how many and when the last was taken.
      if ((frame.captures === undefined) !== (frame.last_ts === undefined)) add('manifest.json', `/frames/${i}`, 'has one of captures and last_ts without the other');
      if (typeof frame.last_ts === 'number') {
        if (frame.last_ts < frame.ts) add('manifest.json', `/frames/${i}/last_ts`, 'is earlier than the entry’s ts');
        previousTs = Math.max(previousTs, frame.last_ts);
      }
    }
    const bytes = archive.files.get(frame.name);
    if (!bytes) {
      // Already reported when the artifacts list it too.
      if (!listed.has(frame.name)) add(frame.name, `manifest.json#/frames/${i}`, 'listed in the manifest’s frames but not in the zip');
      return;
    }
    // SOI, then the frame header: a screenshot that decodes to the size the manifest states.
    if (bytes[0] !== 0xff || bytes[1] !== 0xd8) {
      add(frame.name, '', 'not a JPEG (does not start with the SOI marker FF D8)');
      return;
    }
    const size = readJpegSize(bytes);
    if (!size) add(frame.name, '', 'JPEG without a readable frame header (SOF)');
    else if (size.width !== frame.width || size.height !== frame.height) {
      add(frame.name, `manifest.json#/frames/${i}`, `is ${size.width}x${size.height}, the manifest says ${String(frame.width)}x${String(frame.height)}`);
    }
  });
  for (const name of frameFiles) if (!named.has(name)) add(name, '', 'not listed in manifest.json frames');
}

function checkClip(archive: BundleArchive, manifest: Json, listed: ReadonlySet<string>, add: Add): void {
  const clip = archive.files.get(CLIP_FILE);
  if (!clip) {
    if (isObject(manifest.clip) && !listed.has(CLIP_FILE)) add(CLIP_FILE, 'manifest.json#/clip', 'the manifest describes a clip, the zip has none');
    return;
  }
  if (manifest.clip === null) add(CLIP_FILE, 'manifest.json#/clip', 'in the zip, but the manifest’s clip is null');
  if (!startsWithFtyp(clip)) add(CLIP_FILE, '', 'not an MP4 (does not start with an ftyp box)');
  else if (!readMp4Duration(clip)) add(CLIP_FILE, '', 'MP4 without a readable moov/mvhd box (truncated?)');
}

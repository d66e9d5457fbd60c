/*
 * The names of the files in a bundle zip. The writer lays the zip out with them and every reader looks
 * files up by them, so a name is spelled once, here.
 */

/** The bundle's table of contents: the failure, the frames, the clip, every file with its size. */
export const MANIFEST_FILE = 'manifest.json';
/** The steps before the failure: the agent's, the page's, the recorder's. */
export const STEPS_FILE = 'steps.json';
/** The failure signal, the errors around it, how the recording went (capture level `trace` and up). */
export const DIAGNOSTICS_FILE = 'diagnostics.json';
/** The redacted DOM at the failure (capture level `trace` and up). */
export const SNAPSHOT_FILE = 'snapshot.json';
/** The failure in Markdown, for a person or an agent reading the extracted zip. */
export const SUMMARY_FILE = 'summary.md';
/** The failing tab's requests in the window, masked, as HAR 1.2 (see `schemas/network.ts`). */
export const NETWORK_HAR_FILE = 'network.har';
/** The agent's model and tool calls in the window, masked; steps of kind `tool_call`/`model_call` point into it. */
export const AGENT_FILE = 'agent.json';
/** The standalone viewer, which shows the bundle from `file://` once the zip is extracted. */
export const VIEWER_FILE = 'viewer.html';
/** The frames as one H.264 clip, each frame shown for its `duration_ms`. */
export const CLIP_FILE = 'failure.mp4';
/** The folder of the JPEG frames, with its trailing slash (zip entry names use `/`). */
export const FRAMES_DIR = 'frames/';

/** The bundle's own frame names: `frames/frame_0001.jpeg`, four digits or more. */
const FRAME_FILE_PATTERN = /^frames\/frame_\d{4,}\.jpeg$/;

/**
 * Name of frame `index` (0-based) in the zip: numbered from 1, zero-padded to four digits so that the
 * names sort in time order.
 * @example frameFileName(0) // 'frames/frame_0001.jpeg'
 */
export const frameFileName = (index: number): string => `${FRAMES_DIR}frame_${String(index + 1).padStart(4, '0')}.jpeg`;

/** Whether `name` is shaped like one of the bundle's frame files (not whether the bundle holds it). */
export const isFrameFileName = (name: string): boolean => FRAME_FILE_PATTERN.test(name);

/** The folder of the pages at each step (`snapshots/page-001.json`), capture level `trace` and up. */
export const STEP_SNAPSHOTS_DIR = 'snapshots/';

/** The page at the failure and at the last action as an indented outline, for models. */
export const OUTLINE_FILE = 'outline.md';

const STEP_SNAPSHOT_FILE_PATTERN = /^snapshots\/page-\d{3,}\.json$/;

/**
 * Name of the `index`th (0-based) page written to `snapshots/`, numbered from 1 in time order.
 * @example stepSnapshotFileName(0) // 'snapshots/page-001.json'
 */
export const stepSnapshotFileName = (index: number): string => `${STEP_SNAPSHOTS_DIR}page-${String(index + 1).padStart(3, '0')}.json`;

/** Whether `name` is shaped like one of the bundle's step snapshot files. */
export const isStepSnapshotFileName = (name: string): boolean => STEP_SNAPSHOT_FILE_PATTERN.test(name);

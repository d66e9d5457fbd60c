/*
 * The names of the files in a bundle zip. The writer lays the zip out with them and every reader looks
 * files up by them, so a name is spelled once, here.
 */

export const MANIFEST_FILE = 'manifest.json';
export const STEPS_FILE = 'steps.json';
export const DIAGNOSTICS_FILE = 'diagnostics.json';
export const SNAPSHOT_FILE = 'snapshot.json';
export const SUMMARY_FILE = 'summary.md';
/** The standalone viewer, which shows the bundle from `file://` once the zip is extracted. */
export const VIEWER_FILE = 'viewer.html';
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

import type { StepPageRead } from './step-pages';

/**
 * Where the viewer finds the bundle's files it does not open with: frames and the clip (object URLs in
 * the extension, relative paths from `file://`), and the steps' pages, read when a step is shown.
 */
export interface BundleMedia {
  /** URL of a frame named as in `manifest.frames[].name`, or null when the file is missing. */
  frameUrl(name: string): string | null;
  /** URL of `failure.mp4`, or null when the bundle has no clip. */
  clipUrl: string | null;
  /** The page at a step, by the name `steps.json` gives it (`snapshot`); absent: the bundle carries none. */
  stepPage?(name: string): StepPageRead;
}

/** Where the viewer finds a bundle's binary files: object URLs in the extension, relative paths from `file://`. */
export interface BundleMedia {
  /** URL of a frame named as in `manifest.frames[].name`, or null when the file is missing. */
  frameUrl(name: string): string | null;
  /** URL of `failure.mp4`, or null when the bundle has no clip. */
  clipUrl: string | null;
}

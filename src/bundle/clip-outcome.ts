/** What the clip encoder gave: the MP4 and its length, or why there is none. */
export type ClipOutcome =
  | { ok: true; mp4: Uint8Array; durationSeconds: number; encoder: string }
  | { ok: false; error: string };

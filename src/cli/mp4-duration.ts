/**
 * Just enough of ISO BMFF (ISO/IEC 14496-12) to read a clip's length without ffprobe: walk the box tree
 * and read `moov/mvhd`. A box is `size:u32 type:4cc`, where size 1 means a u64 size follows and size 0
 * means "to the end of the enclosing box" (§4.2).
 */

export interface Mp4Box {
  type: string;
  /** Offset of the box header in the file. */
  start: number;
  /** Offset of the box payload (after the header). */
  payload: number;
  /** Offset just past the box. */
  end: number;
}

export interface Mp4Duration {
  timescale: number;
  /** In `timescale` units, as written in `mvhd` (or `mvex/mehd` for fragmented files). */
  duration: number;
  seconds: number;
}

const fourCc = (bytes: Uint8Array, at: number): string => String.fromCharCode(...bytes.subarray(at, at + 4));

/** The boxes directly inside `[start, end)`; stops at the first malformed header instead of throwing. */
export function listBoxes(bytes: Uint8Array, start = 0, end = bytes.byteLength): Mp4Box[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxes: Mp4Box[] = [];
  let at = start;
  while (at + 8 <= end) {
    let size = view.getUint32(at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > end) break;
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) {
      size = end - at;
    }
    if (size < header || at + size > end) break;
    boxes.push({ type: fourCc(bytes, at + 4), start: at, payload: at + header, end: at + size });
    at += size;
  }
  return boxes;
}

/** The first box along a path of types, e.g. `['moov', 'mvhd']`. */
export function findBox(bytes: Uint8Array, path: readonly string[]): Mp4Box | null {
  let start = 0;
  let end = bytes.byteLength;
  let found: Mp4Box | null = null;
  for (const type of path) {
    found = listBoxes(bytes, start, end).find((b) => b.type === type) ?? null;
    if (!found) return null;
    start = found.payload;
    end = found.end;
  }
  return found;
}

/** Whether the file starts with an `ftyp` box, as every MP4 must (§4.3). */
export function startsWithFtyp(bytes: Uint8Array): boolean {
  return listBoxes(bytes)[0]?.type === 'ftyp';
}

/**
 * The movie's duration from `moov/mvhd` (version 0: 32-bit fields, version 1: 64-bit). Fragmented files
 * write 0 there; their total is in `moov/mvex/mehd` when the muxer wrote one. Null when neither is readable.
 */
export function readMp4Duration(bytes: Uint8Array): Mp4Duration | null {
  const mvhd = findBox(bytes, ['moov', 'mvhd']);
  if (!mvhd) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = bytes[mvhd.payload];
  // Full box header (version + flags), then creation and modification times, timescale, duration.
  const longFields = version === 1;
  const timescaleAt = mvhd.payload + 4 + (longFields ? 16 : 8);
  const durationEnd = timescaleAt + 4 + (longFields ? 8 : 4);
  if (durationEnd > mvhd.end) return null;
  const timescale = view.getUint32(timescaleAt);
  let duration = longFields ? Number(view.getBigUint64(timescaleAt + 4)) : view.getUint32(timescaleAt + 4);
  // All ones means "unknown" (§8.2.2.3).
  if (duration === 0xffffffff || (longFields && duration >= Number.MAX_SAFE_INTEGER)) duration = 0;
  if (duration === 0) duration = readMehdDuration(bytes, view) ?? 0;
  if (timescale === 0) return null;
  return { timescale, duration, seconds: duration / timescale };
}

function readMehdDuration(bytes: Uint8Array, view: DataView): number | null {
  const mehd = findBox(bytes, ['moov', 'mvex', 'mehd']);
  if (!mehd || mehd.payload + 8 > mehd.end) return null;
  if (bytes[mehd.payload] === 1) return mehd.payload + 12 <= mehd.end ? Number(view.getBigUint64(mehd.payload + 4)) : null;
  return view.getUint32(mehd.payload + 4);
}

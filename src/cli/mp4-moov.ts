/**
 * Picks the `moov` box out of an MP4 read chunk by chunk, skipping every other top-level box (the
 * media in `mdat`) without holding it: `afr inspect` reads a clip's duration from a bundle without
 * inflating the whole clip into memory. Box layout as in `mp4-duration.ts` (ISO/IEC 14496-12 §4.2).
 */
export interface MoovCollector {
  push(chunk: Uint8Array): void;
  /** The whole `moov` box (header included) once it has been read, else null. */
  moov(): Uint8Array | null;
}

/** A `moov` past this is not one a recorder clip writes (its sample tables take kilobytes a second); it is skipped. */
const MAX_MOOV_BYTES = 64 * 1024 * 1024;

/** Collects the first top-level `moov` box of a stream; stops looking at the first malformed header. */
export function collectMoov(maxBytes = MAX_MOOV_BYTES): MoovCollector {
  const header = new Uint8Array(16);
  let headerLength = 0;
  /** Bytes of the current box still to skip or keep. */
  let left = 0;
  let keep: Uint8Array | null = null;
  let kept = 0;
  let found: Uint8Array | null = null;
  let stopped = false;

  /** Reads a box header once enough bytes are there; returns false while more are needed. */
  const startBox = (): boolean => {
    if (headerLength < 8) return false;
    const view = new DataView(header.buffer);
    const size32 = view.getUint32(0);
    const headerBytes = size32 === 1 ? 16 : 8;
    if (headerLength < headerBytes) return false;
    const size = size32 === 1 ? Number(view.getBigUint64(8)) : size32;
    const type = String.fromCharCode(...header.subarray(4, 8));
    // Size 0 ("to the end of the file") is only ever the last box: mdat of a streamed file.
    if (size32 === 0 || size < headerBytes) {
      stopped = true;
      return true;
    }
    left = size - headerLength;
    if (type === 'moov' && size <= maxBytes) {
      keep = new Uint8Array(size);
      keep.set(header.subarray(0, headerLength));
      kept = headerLength;
    }
    headerLength = 0;
    return true;
  };

  return {
    moov: () => found,
    push(chunk) {
      let at = 0;
      while (at < chunk.byteLength && !found && !stopped) {
        if (left === 0) {
          const take = Math.min(16 - headerLength, chunk.byteLength - at);
          // Take only the 8 bytes of a plain header first: a 16-byte read would swallow a small box's payload.
          const want = headerLength < 8 ? Math.min(take, 8 - headerLength) : take;
          header.set(chunk.subarray(at, at + want), headerLength);
          headerLength += want;
          at += want;
          if (startBox() && keep && left === 0) found = keep;
          continue;
        }
        const take = Math.min(left, chunk.byteLength - at);
        if (keep) {
          keep.set(chunk.subarray(at, at + take), kept);
          kept += take;
        }
        left -= take;
        at += take;
        if (left === 0 && keep) found = keep;
      }
    },
  };
}

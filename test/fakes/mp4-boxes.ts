/** Reads box sizes and types from an mp4: enough to find mdhd and stts. */
export function findBox(bytes: Uint8Array, path: string[], start = 0, end = bytes.length): DataView | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = start; at + 8 <= end; ) {
    const size = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (type === path[0]) {
      if (path.length === 1) return new DataView(bytes.buffer, bytes.byteOffset + at + 8, size - 8);
      // stsd-like containers are not on our paths; these are plain containers.
      return findBox(bytes, path.slice(1), at + 8, at + size);
    }
    if (size < 8) return null;
    at += size;
  }
  return null;
}

/** Seconds the track's sample table adds up to, and what its header says. */
export function trackSeconds(mp4: Uint8Array): { stts: number; mdhd: number } {
  const mdhd = findBox(mp4, ['moov', 'trak', 'mdia', 'mdhd'])!;
  const timescale = mdhd.getUint32(12);
  const stts = findBox(mp4, ['moov', 'trak', 'mdia', 'minf', 'stbl', 'stts'])!;
  let units = 0;
  for (let i = 0; i < stts.getUint32(4); i++) units += stts.getUint32(8 + i * 8) * stts.getUint32(12 + i * 8);
  return { stts: units / timescale, mdhd: mdhd.getUint32(16) / timescale };
}

/** The types of an mp4's top-level boxes, in file order (`ftyp`, `moov`, `mdat`…). */
export function topLevelBoxes(bytes: Uint8Array): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const types: string[] = [];
  for (let at = 0; at + 8 <= bytes.length; ) {
    const size = view.getUint32(at);
    types.push(String.fromCharCode(...bytes.subarray(at + 4, at + 8)));
    if (size < 8) break;
    at += size;
  }
  return types;
}

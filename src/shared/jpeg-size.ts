/** Pixel dimensions of an image. */
export interface Size {
  width: number;
  height: number;
}

/**
 * SOF markers carry the frame size. 0xC4 (DHT), 0xC8 (JPG extension) and 0xCC (DAC) sit in the same
 * range but are not frame headers (ITU-T T.81, table B.1).
 */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Markers that stand alone, without a length field: TEM and RST0–RST7. */
function isStandalone(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
}

/**
 * Reads a JPEG's width and height from its SOF segment without decoding any pixels.
 * Returns null when the bytes are not a JPEG, are truncated before the SOF, or declare a zero size
 * (a height deferred to a DNL marker, which screen captures never use).
 */
export function readJpegSize(bytes: Uint8Array): Size | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let offset = 2;
  while (offset < bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    // Any number of 0xFF fill bytes may precede a marker (T.81 B.1.1.2).
    while (bytes[offset] === 0xff) offset += 1;
    const marker = bytes[offset];
    offset += 1;
    if (marker === undefined) return null;
    if (isStandalone(marker)) continue;
    // Scan data or end of image before any frame header: not a usable JPEG.
    if (marker === 0xda || marker === 0xd9) return null;
    if (offset + 2 > bytes.length) return null;
    const length = ((bytes[offset] ?? 0) << 8) | (bytes[offset + 1] ?? 0);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      // Segment: length(2) precision(1) height(2) width(2) …
      if (length < 7 || offset + 7 > bytes.length) return null;
      const height = ((bytes[offset + 3] ?? 0) << 8) | (bytes[offset + 4] ?? 0);
      const width = ((bytes[offset + 5] ?? 0) << 8) | (bytes[offset + 6] ?? 0);
      return width > 0 && height > 0 ? { width, height } : null;
    }
    offset += length;
  }
  return null;
}

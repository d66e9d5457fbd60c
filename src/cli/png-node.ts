import { PNG } from 'pngjs';
import type { PngEncoder } from '../reads/image';

/** PNG bytes of RGBA pixels with `pngjs` (Node's zlib at its default level). */
export const encodePngNode: PngEncoder = ({ width, height, data }) => {
  const png = new PNG({ width, height });
  png.data = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const bytes = PNG.sync.write(png);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
};

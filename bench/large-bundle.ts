/**
 * Writes a large, valid bundle for measuring the command line's memory on it:
 *   npx tsx bench/large-bundle.ts /tmp/large.zip [frames=4000] [frameKiB=48]
 *   /usr/bin/time -v node bin/afr.mjs inspect /tmp/large.zip   (see "Maximum resident set size")
 * Frames are incompressible bytes behind a JPEG marker (stored, as the recorder stores JPEGs); the clip
 * is a real MP4 header with its `moov` after a large `mdat`, as a muxer that is not "faststart" writes it.
 */
import { randomFillSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { writeBundle } from '../src/bundle/write-bundle';
import { findBox } from '../src/cli/mp4-duration';
import { makeBundleContents, T0 } from '../test/fakes/viewer-bundle';

const [out = '/tmp/afr-large-bundle.zip', frameCount = '4000', frameKiB = '48'] = process.argv.slice(2);
const count = Number(frameCount);

function frameBytes(): Uint8Array {
  const jpeg = randomFillSync(new Uint8Array(Number(frameKiB) * 1024));
  jpeg.set([0xff, 0xd8, 0xff], 0);
  return jpeg;
}

/** tiny.mp4's ftyp and moov around an mdat of `mdatBytes` noise, moov last. */
function clipBytes(mdatBytes: number): Uint8Array {
  const tiny = new Uint8Array(readFileSync(new URL('../test/fixtures/cli/tiny.mp4', import.meta.url)));
  const ftyp = findBox(tiny, ['ftyp'])!;
  const moov = findBox(tiny, ['moov'])!;
  const mdat = randomFillSync(new Uint8Array(8 + mdatBytes));
  new DataView(mdat.buffer).setUint32(0, mdat.byteLength);
  mdat.set([0x6d, 0x64, 0x61, 0x74], 4);
  const parts = [tiny.subarray(ftyp.start, ftyp.end), mdat, tiny.subarray(moov.start, moov.end)];
  const clip = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    clip.set(part, at);
    at += part.byteLength;
  }
  return clip;
}

const base = makeBundleContents();
const frames = Array.from({ length: count }, (_, i) => ({ jpeg: frameBytes(), ts: T0 - (count - i) * 100, durationMs: 100, width: 1280, height: 720 }));
const { zip } = await writeBundle({ ...base, frames, clip: clipBytes(32 * 1024 * 1024) });
writeFileSync(out, zip);
console.log(`${out}: ${count} frames, ${(zip.byteLength / 1024 / 1024).toFixed(1)} MiB`);

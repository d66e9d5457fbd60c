import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readJpegSize } from './jpeg-size';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../test/fixtures/clip/${name}`, import.meta.url)));

/** A marker segment: FF, marker, big-endian length (which counts itself), payload. */
function segment(marker: number, payload: number[]): number[] {
  const length = payload.length + 2;
  return [0xff, marker, length >> 8, length & 0xff, ...payload];
}

/** SOFn payload: precision, height, width, one component. */
function sof(marker: number, width: number, height: number): number[] {
  return segment(marker, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]);
}

const SOI = [0xff, 0xd8];
const APP0 = segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 2, 0, 0, 1, 0, 1, 0, 0]);
const DHT = segment(0xc4, [0, ...new Array<number>(16).fill(0)]);
const SOS = segment(0xda, [1, 1, 0, 0, 63, 0]);

const bytes = (...parts: number[][]) => new Uint8Array(parts.flat());

describe('readJpegSize', () => {
  it.each([
    ['baseline-64x36.jpeg', 64, 36],
    ['baseline444-48x32.jpeg', 48, 32],
    ['odd-65x37.jpeg', 65, 37],
    ['portrait-33x51.jpeg', 33, 51],
  ])('reads %s made by the ffmpeg CLI', (name, width, height) => {
    expect(readJpegSize(fixture(name))).toEqual({ width, height });
  });

  it.each([
    ['baseline (SOF0)', 0xc0],
    ['extended (SOF1)', 0xc1],
    ['progressive (SOF2)', 0xc2],
    ['lossless (SOF3)', 0xc3],
  ])('reads a %s header', (_name, marker) => {
    expect(readJpegSize(bytes(SOI, APP0, sof(marker, 1280, 720), SOS))).toEqual({ width: 1280, height: 720 });
  });

  it('does not take a Huffman table (0xC4) for a frame header', () => {
    expect(readJpegSize(bytes(SOI, DHT, sof(0xc0, 3000, 2000), SOS))).toEqual({ width: 3000, height: 2000 });
  });

  it('skips fill bytes and standalone markers', () => {
    expect(readJpegSize(bytes(SOI, [0xff, 0xff, 0xff], APP0, [0xff, 0xd0], sof(0xc0, 2, 4)))).toEqual({
      width: 2,
      height: 4,
    });
  });

  it.each([
    ['empty', bytes()],
    ['a PNG signature', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
    ['scan data before any frame header', bytes(SOI, APP0, SOS)],
    ['end of image before any frame header', bytes(SOI, APP0, [0xff, 0xd9])],
    ['a header cut short', bytes(SOI, APP0, sof(0xc0, 64, 36).slice(0, 6))],
    ['a segment length below 2', bytes(SOI, [0xff, 0xe0, 0, 1])],
    ['garbage where a marker should be', bytes(SOI, [0x00, 0x11, 0x22])],
    ['a zero height (deferred to DNL)', bytes(SOI, sof(0xc0, 64, 0), SOS)],
  ])('returns null for %s', (_name, input) => {
    expect(readJpegSize(input)).toBeNull();
  });

  it('returns null for every truncation of a real file that cuts into the frame header', () => {
    const full = fixture('baseline-64x36.jpeg');
    const ends: number[] = [];
    for (let end = 0; end < 400; end += 1) if (readJpegSize(full.subarray(0, end)) !== null) ends.push(end);
    // Once the SOF segment's size fields are in, any longer prefix reads the same size.
    const first = ends[0] ?? Infinity;
    expect(ends).toEqual(Array.from({ length: 400 - first }, (_, i) => first + i));
    expect(readJpegSize(full.subarray(0, first))).toEqual({ width: 64, height: 36 });
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readMp4Duration } from './mp4-duration';
import { collectMoov } from './mp4-moov';

/** ffmpeg testsrc, 64x36, 2 fps, 1.5 s, libx264 (see test/fixtures/cli/README.md). */
const tiny = new Uint8Array(readFileSync(new URL('../../test/fixtures/cli/tiny.mp4', import.meta.url)));

const u32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
const box = (type: string, ...payload: number[][]) => {
  const body = payload.flat();
  return [...u32(8 + body.length), ...ascii(type), ...body];
};
const mvhd = (timescale: number, duration: number) => box('mvhd', [0, 0, 0, 0], u32(0), u32(0), u32(timescale), u32(duration), new Array(80).fill(0));

/** Feeds `bytes` to a collector in chunks of `size` and reads the duration from what it kept. */
function durationInChunks(bytes: Uint8Array, size: number, maxBytes?: number): number | null {
  const collector = collectMoov(maxBytes);
  for (let at = 0; at < bytes.byteLength; at += size) collector.push(bytes.subarray(at, at + size));
  const moov = collector.moov();
  return moov ? (readMp4Duration(moov)?.seconds ?? null) : null;
}

describe('collectMoov', () => {
  it.each([1, 3, 8, 16, 1000, 1 << 20])('reads a real clip fed in chunks of %i bytes', (size) => {
    expect(durationInChunks(tiny, size)).toBe(1.5);
  });

  it('skips a large mdat before the moov without keeping it', () => {
    const mdat = [...u32(8 + 100_000), ...ascii('mdat'), ...new Array(100_000).fill(0)];
    const file = new Uint8Array([...box('ftyp', ascii('isom')), ...mdat, ...box('moov', mvhd(1000, 2500))]);
    expect(durationInChunks(file, 4096)).toBe(2.5);
  });

  it('walks a box with a 64-bit size', () => {
    const large = [...u32(1), ...ascii('free'), ...u32(0), ...u32(20), 9, 9, 9, 9];
    expect(durationInChunks(new Uint8Array([...large, ...box('moov', mvhd(10, 70))]), 5)).toBe(7);
  });

  it.each([
    ['no moov', [...box('ftyp', ascii('isom')), ...box('free', [1, 2, 3])]],
    ['a malformed header', [...u32(3), ...ascii('junk'), ...box('moov', mvhd(10, 70))]],
    ['an mdat sized "to the end" before the moov', [...u32(0), ...ascii('mdat'), 1, 2, 3, ...box('moov', mvhd(10, 70))]],
  ])('finds nothing in a file with %s', (_name, bytes) => {
    expect(durationInChunks(new Uint8Array(bytes), 7)).toBeNull();
  });

  it('skips a moov larger than its bound', () => {
    expect(durationInChunks(new Uint8Array(box('moov', mvhd(10, 70))), 7, 50)).toBeNull();
  });
});

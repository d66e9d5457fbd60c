import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findBox, listBoxes, readMp4Duration, startsWithFtyp } from './mp4-duration';

/** ffmpeg testsrc, 64x36, 2 fps, 1.5 s, libx264 (see test/fixtures/cli/README.md). */
const tiny = new Uint8Array(readFileSync(new URL('../../test/fixtures/cli/tiny.mp4', import.meta.url)));

const u32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const u64 = (n: number) => [...u32(Math.floor(n / 2 ** 32)), ...u32(n >>> 0)];
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
const box = (type: string, ...payload: number[][]) => {
  const body = payload.flat();
  return [...u32(8 + body.length), ...ascii(type), ...body];
};
const ftyp = box('ftyp', ascii('isom'), u32(0x200));
const mvhd0 = (timescale: number, duration: number) => box('mvhd', [0, 0, 0, 0], u32(0), u32(0), u32(timescale), u32(duration), new Array(80).fill(0));
const mvhd1 = (timescale: number, duration: number) => box('mvhd', [1, 0, 0, 0], u64(0), u64(0), u32(timescale), u64(duration), new Array(80).fill(0));
const bytes = (...boxes: number[][]) => new Uint8Array(boxes.flat());

describe('readMp4Duration', () => {
  it('reads the duration of a real ffmpeg clip', () => {
    expect(startsWithFtyp(tiny)).toBe(true);
    expect(readMp4Duration(tiny)).toEqual({ timescale: 1000, duration: 1500, seconds: 1.5 });
  });

  it.each([
    ['version 0 mvhd', bytes(ftyp, box('moov', mvhd0(600, 3000))), 5],
    ['version 1 mvhd (64-bit fields)', bytes(ftyp, box('moov', mvhd1(90_000, 2 ** 33))), 2 ** 33 / 90_000],
    ['moov after mdat, mdat sized "to the end"', bytes(ftyp, box('moov', mvhd0(1000, 2500)), [0, 0, 0, 0, ...ascii('mdat'), 1, 2, 3]), 2.5],
    ['fragmented: mvhd 0, total in mvex/mehd', bytes(ftyp, box('moov', mvhd0(1000, 0), box('mvex', box('mehd', [0, 0, 0, 0], u32(4200))))), 4.2],
  ])('%s', (_name, file, seconds) => {
    expect(readMp4Duration(file)?.seconds).toBeCloseTo(seconds, 6);
  });

  it('walks a box with a 64-bit size', () => {
    const large = [...u32(1), ...ascii('free'), ...u64(20), 9, 9, 9, 9];
    const file = bytes(ftyp, large, box('moov', mvhd0(10, 70)));
    expect(listBoxes(file).map((b) => b.type)).toEqual(['ftyp', 'free', 'moov']);
    expect(readMp4Duration(file)?.seconds).toBe(7);
  });

  it.each([
    ['no moov', bytes(ftyp)],
    ['mvhd cut short', bytes(ftyp, box('moov', box('mvhd', [0, 0, 0, 0], u32(0))))],
    ['timescale 0', bytes(ftyp, box('moov', mvhd0(0, 100)))],
    ['truncated file', tiny.subarray(0, 60)],
    ['not an mp4', new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5, 6])],
  ])('returns null for %s', (_name, file) => {
    expect(readMp4Duration(file)).toBeNull();
  });

  it('stops at a malformed header instead of reading past the end', () => {
    const file = bytes(ftyp, [...u32(4), ...ascii('junk')]);
    expect(listBoxes(file).map((b) => b.type)).toEqual(['ftyp']);
    expect(findBox(file, ['junk'])).toBeNull();
    expect(startsWithFtyp(new Uint8Array([0, 0, 0, 8, ...ascii('moov')]))).toBe(false);
  });
});

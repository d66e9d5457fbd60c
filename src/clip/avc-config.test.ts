import { describe, expect, it } from 'vitest';
import { avcCodecCandidates, avcLevelFor, videoEncoderConfig } from './avc-config';

describe('avcLevelFor', () => {
  it.each([
    [{ width: 640, height: 360 }, 0x1e],
    [{ width: 1280, height: 720 }, 0x1f],
    [{ width: 1280, height: 800 }, 0x20],
    [{ width: 1920, height: 1080 }, 0x28],
    [{ width: 1920, height: 1200 }, 0x32],
    [{ width: 886, height: 1920 }, 0x28],
    [{ width: 1920, height: 1920 }, 0x32],
    // 1920×2 is 120 macroblocks, but 120 wide: 120² > 8 × 1620 (3.0), fine from 3.1 (8 × 3600).
    [{ width: 1920, height: 2 }, 0x1f],
    [{ width: 8192, height: 8192 }, null],
  ])('%o → %s', (size, level) => {
    expect(avcLevelFor(size)).toBe(level);
  });
});

describe('avcCodecCandidates', () => {
  it('offers baseline, main and high at the lowest level that fits', () => {
    expect(avcCodecCandidates({ width: 1280, height: 720 })).toEqual(['avc1.42001f', 'avc1.4d001f', 'avc1.64001f']);
    expect(avcCodecCandidates({ width: 1920, height: 1080 })).toEqual(['avc1.420028', 'avc1.4d0028', 'avc1.640028']);
  });

  it('offers nothing for a frame no level allows', () => {
    expect(avcCodecCandidates({ width: 8192, height: 8192 })).toEqual([]);
  });
});

describe('videoEncoderConfig', () => {
  it('asks for mp4-style (avc) output at the clip size', () => {
    expect(videoEncoderConfig('avc1.42001f', { width: 1280, height: 720 })).toEqual({
      codec: 'avc1.42001f',
      width: 1280,
      height: 720,
      bitrate: 2_764_800,
      avc: { format: 'avc' },
    });
  });
});

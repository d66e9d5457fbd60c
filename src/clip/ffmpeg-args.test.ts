import { describe, expect, it } from 'vitest';
import { buildConcatScript, buildFfmpegArgs, buildVideoFilter, frameFileName, sumDurationSeconds } from './ffmpeg-args';

describe('frameFileName', () => {
  it.each([
    [0, 'f0001.jpeg'],
    [41, 'f0042.jpeg'],
    [9999, 'f10000.jpeg'],
  ])('%i → %s', (index, name) => {
    expect(frameFileName(index)).toBe(name);
  });
});

describe('buildConcatScript', () => {
  it('gives each frame its real duration and repeats the last file', () => {
    expect(buildConcatScript([600, 537, 1250])).toBe(
      [
        'ffconcat version 1.0',
        "file 'f0001.jpeg'",
        'option framerate 1000',
        'duration 0.600',
        "file 'f0002.jpeg'",
        'option framerate 1000',
        'duration 0.537',
        "file 'f0003.jpeg'",
        'option framerate 1000',
        'duration 1.250',
        "file 'f0003.jpeg'",
        'option framerate 1000',
        '',
      ].join('\n'),
    );
  });

  it('handles a single frame', () => {
    expect(buildConcatScript([2000]).match(/file 'f0001\.jpeg'/g)).toHaveLength(2);
  });

  it('rounds durations to the millisecond', () => {
    expect(buildConcatScript([33.3333])).toContain('duration 0.033\n');
  });

  it('refuses an empty clip', () => {
    expect(() => buildConcatScript([])).toThrow(/at least one frame/);
  });
});

describe('buildVideoFilter', () => {
  it('crops odd pixels, fits, pads and converts to yuv420p', () => {
    expect(buildVideoFilter({ width: 1280, height: 720 })).toBe(
      'crop=trunc(iw/2)*2:trunc(ih/2)*2,' +
        'scale=1280:720:force_original_aspect_ratio=decrease:force_divisible_by=2,' +
        'pad=1280:720:(ow-iw)/2:(oh-ih)/2,setsar=1,format=yuv420p',
    );
  });
});

describe('buildFfmpegArgs', () => {
  const args = buildFfmpegArgs({ script: 'list.txt', output: 'out.mp4', size: { width: 64, height: 36 }, preset: 'veryfast' });

  it('reads the concat script and writes the output last', () => {
    expect(args.slice(0, 6)).toEqual(['-f', 'concat', '-safe', '0', '-i', 'list.txt']);
    expect(args.at(-1)).toBe('out.mp4');
  });

  it.each([
    ['-c:v', 'libx264'],
    ['-preset', 'veryfast'],
    ['-pix_fmt', 'yuv420p'],
    ['-fps_mode', 'vfr'],
    ['-movflags', '+faststart'],
    ['-vf', buildVideoFilter({ width: 64, height: 36 })],
  ])('passes %s %s', (flag, value) => {
    expect(args[args.indexOf(flag) + 1]).toBe(value);
  });
});

describe('sumDurationSeconds', () => {
  it('adds milliseconds up to seconds', () => {
    expect(sumDurationSeconds([600, 537, 1250])).toBeCloseTo(2.387, 9);
  });
});

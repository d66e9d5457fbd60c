import type { Size } from '../shared/jpeg-size';

/** x264 presets worth their time in wasm; slower ones buy little for screen captures. */
export type X264Preset = 'ultrafast' | 'veryfast';

/** Name of the i-th (0-based) frame file in ffmpeg's in-memory file system. */
export function frameFileName(index: number): string {
  return `f${String(index + 1).padStart(4, '0')}.jpeg`;
}

/**
 * The concat-demuxer script that shows each frame for its real duration (variable frame rate).
 *
 * - `option framerate 1000` is handed to each file's jpeg demuxer: its default 25 fps time base would
 *   round every duration to 40 ms (0.537 s became 0.52 s). It needs `-safe 0`, which is harmless here
 *   because the script only names files this module generated.
 * - The concat demuxer ignores the last file's `duration` (nothing follows it to start at that time), so
 *   the last file is listed once more; that extra frame lasts 1 ms (1/framerate).
 *   https://trac.ffmpeg.org/wiki/Slideshow#Concatdemuxer
 */
export function buildConcatScript(durationsMs: readonly number[]): string {
  if (durationsMs.length === 0) throw new Error('a clip needs at least one frame');
  const lines = ['ffconcat version 1.0'];
  durationsMs.forEach((ms, index) => {
    lines.push(`file '${frameFileName(index)}'`, 'option framerate 1000', `duration ${(ms / 1000).toFixed(3)}`);
  });
  lines.push(`file '${frameFileName(durationsMs.length - 1)}'`, 'option framerate 1000');
  return `${lines.join('\n')}\n`;
}

/**
 * Scales every frame to fit `size` and pads the rest (black, centred), so frames captured before a
 * window resize still land in one stream. Odd-sized frames lose their last row/column first, so a frame
 * of the last frame's own size is never resampled. JPEG's full-range yuvj420p becomes yuv420p, which
 * every player expects.
 */
export function buildVideoFilter({ width, height }: Size): string {
  return [
    'crop=trunc(iw/2)*2:trunc(ih/2)*2',
    `scale=${width}:${height}:force_original_aspect_ratio=decrease:force_divisible_by=2`,
    `pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2`,
    'setsar=1',
    'format=yuv420p',
  ].join(',');
}

export interface FfmpegArgsOptions {
  /** Concat script written by `buildConcatScript`. */
  script: string;
  output: string;
  size: Size;
  preset: X264Preset;
}

/** The ffmpeg command line (without the program name) that turns the concat script into an H.264 mp4. */
export function buildFfmpegArgs({ script, output, size, preset }: FfmpegArgsOptions): string[] {
  return [
    ...['-f', 'concat', '-safe', '0', '-i', script],
    ...['-vf', buildVideoFilter(size)],
    // Keep the frames' own timestamps: the mp4 muxer would otherwise duplicate frames up to 25 fps.
    // `-fps_mode` replaces the deprecated `-vsync` from ffmpeg 5.1, the version in @ffmpeg/core 0.12.
    ...['-fps_mode', 'vfr'],
    ...['-c:v', 'libx264', '-preset', preset, '-pix_fmt', 'yuv420p'],
    // moov first: the viewer can start playing before the whole file is read.
    ...['-movflags', '+faststart', '-an'],
    output,
  ];
}

/** How long the clip plays: the sum of the frames' durations (the extra 1 ms frame aside). */
export function sumDurationSeconds(durationsMs: readonly number[]): number {
  return durationsMs.reduce((sum, ms) => sum + ms, 0) / 1000;
}

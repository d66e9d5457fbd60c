import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildConcatScript, buildFfmpegArgs, frameFileName, sumDurationSeconds, type X264Preset } from './ffmpeg-args';
import { readJpegSize } from '../shared/jpeg-size';
import { chooseOutputSize } from './output-size';

/**
 * Proves the command line with the system ffmpeg (Debian's 5.1, the same major version as
 * @ffmpeg/core 0.12): real durations survive, mixed sizes land in one stream. The wasm build itself is
 * exercised in Chromium, not here.
 */
const FFMPEG = '/usr/bin/ffmpeg';
const FFPROBE = '/usr/bin/ffprobe';
const haveFfmpeg = existsSync(FFMPEG) && existsSync(FFPROBE);

const fixtureDir = fileURLToPath(new URL('../../test/fixtures/clip/', import.meta.url));
// Portrait and smaller frames first; the odd-sized last frame decides the output size (64×36).
const fixtures = ['baseline-64x36.jpeg', 'portrait-33x51.jpeg', 'baseline444-48x32.jpeg', 'baseline-64x36.jpeg', 'odd-65x37.jpeg'];
const durationsMs = [600, 537, 1250, 33, 700];

interface Probe {
  format: { duration: string };
  streams: { codec_name: string; width: number; height: number; pix_fmt: string; nb_frames: string }[];
  packets: { pts_time: string }[];
}

const workDir = mkdtempSync(path.join(tmpdir(), 'afr-clip-cli-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function encodeWithCli(preset: X264Preset): Probe {
  fixtures.forEach((name, index) => copyFileSync(path.join(fixtureDir, name), path.join(workDir, frameFileName(index))));
  writeFileSync(path.join(workDir, 'list.txt'), buildConcatScript(durationsMs));
  const last = readJpegSize(new Uint8Array(readFileSync(path.join(fixtureDir, fixtures.at(-1) ?? ''))));
  if (!last) throw new Error('fixture without a size');
  const output = `out-${preset}.mp4`;
  const args = buildFfmpegArgs({ script: 'list.txt', output, size: chooseOutputSize(last), preset });
  execFileSync(FFMPEG, ['-nostdin', '-y', '-v', 'error', ...args], { cwd: workDir, stdio: 'pipe' });
  const json = execFileSync(
    FFPROBE,
    ['-v', 'error', '-show_entries', 'format=duration:stream=codec_name,width,height,pix_fmt,nb_frames:packet=pts_time',
      '-of', 'json', output],
    { cwd: workDir, encoding: 'utf8' },
  );
  return JSON.parse(json) as Probe;
}

describe.skipIf(!haveFfmpeg)('ffmpeg CLI with the clip arguments', () => {
  it.each(['ultrafast', 'veryfast'] as const)('%s: H.264 at the last frame size, real durations', (preset) => {
    const probe = encodeWithCli(preset);
    expect(probe.streams[0]).toMatchObject({ codec_name: 'h264', width: 64, height: 36, pix_fmt: 'yuv420p' });
    // One frame per file plus the repeated last one.
    expect(Number(probe.streams[0]?.nb_frames)).toBe(fixtures.length + 1);
    expect(Math.abs(Number(probe.format.duration) - sumDurationSeconds(durationsMs))).toBeLessThan(0.1);

    // Each frame starts where the previous frames' durations add up to (millisecond time base).
    const starts = probe.packets.map((packet) => Number(packet.pts_time)).sort((a, b) => a - b);
    const expected = durationsMs.reduce<number[]>((acc, ms) => [...acc, (acc.at(-1) ?? 0) + ms / 1000], [0]);
    starts.forEach((start, index) => expect(start).toBeCloseTo(expected[index] ?? NaN, 3));
  });
});

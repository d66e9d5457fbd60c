import type { Size } from '../shared/jpeg-size';

/** H.264 levels by the largest frame they allow, in 16×16 macroblocks (ITU-T H.264, table A-1). */
const AVC_LEVELS: readonly { idc: number; maxFrameMbs: number }[] = [
  { idc: 0x1e, maxFrameMbs: 1_620 }, // 3.0
  { idc: 0x1f, maxFrameMbs: 3_600 }, // 3.1: 1280×720
  { idc: 0x20, maxFrameMbs: 5_120 }, // 3.2
  { idc: 0x28, maxFrameMbs: 8_192 }, // 4.0: 1920×1080
  { idc: 0x32, maxFrameMbs: 22_080 }, // 5.0
  { idc: 0x33, maxFrameMbs: 36_864 }, // 5.1
];

/** Baseline first: every decoder plays it, and Chromium's software encoder (OpenH264) makes nothing else. */
const AVC_PROFILES = ['4200', '4d00', '6400'] as const;

/**
 * The lowest H.264 level whose frame size fits `size`, or null when none does. Besides the area, each
 * side may be at most √(8 × MaxFS) macroblocks (A.3.1 f and g), which rules out very thin frames.
 */
export function avcLevelFor({ width, height }: Size): number | null {
  const mbWidth = Math.ceil(width / 16);
  const mbHeight = Math.ceil(height / 16);
  const level = AVC_LEVELS.find(
    ({ maxFrameMbs }) => mbWidth * mbHeight <= maxFrameMbs && Math.max(mbWidth, mbHeight) ** 2 <= 8 * maxFrameMbs,
  );
  return level?.idc ?? null;
}

/** Codec strings to offer `VideoEncoder.isConfigSupported`, best first: baseline, main, high at the lowest fitting level. */
export function avcCodecCandidates(size: Size): string[] {
  const level = avcLevelFor(size);
  if (level === null) return [];
  const hex = level.toString(16).padStart(2, '0');
  return AVC_PROFILES.map((profile) => `avc1.${profile}${hex}`);
}

/**
 * Bits per second: 3 bits per pixel and second, 2.8 Mbit/s at 1280×720. At the recorder's 2 frames per
 * second the clip's size barely moved between 1 and 8 Mbit/s (each frame gets more bits than it needs);
 * the rate matters for fast screencasts.
 */
export function clipBitrate({ width, height }: Size): number {
  return width * height * 3;
}

/**
 * The `VideoEncoderConfig` for a clip. `avc.format: 'avc'` gives length-prefixed NAL units with the
 * SPS/PPS in the decoder config, which is what an mp4 stores. `latencyMode` stays at its default
 * ('quality'): 'realtime' was not faster here and lets an encoder drop frames to hold the rate.
 */
export function videoEncoderConfig(codec: string, size: Size): VideoEncoderConfig {
  return { codec, width: size.width, height: size.height, bitrate: clipBitrate(size), avc: { format: 'avc' } };
}

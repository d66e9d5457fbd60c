import { describe, expect, it } from 'vitest';
import { topLevelBoxes, trackSeconds } from '../../test/fakes/mp4-boxes';
import { Mp4VideoWriter } from './mp4-video-writer';

/** What a `VideoEncoder` hands its output callback: the bytes, the type and (maybe) no duration. */
const chunk = (type: 'key' | 'delta', timestampUs: number) =>
  ({ type, timestamp: timestampUs, duration: null, byteLength: 4, copyTo: (to: Uint8Array) => to.set([0, 0, 0, 1]) }) as unknown as EncodedVideoChunk;
// An encoder may leave codedWidth/codedHeight out of its decoder config (the spec makes them optional).
const meta = { decoderConfig: { codec: 'avc1.42001e', description: new Uint8Array([1, 0x42, 0, 0x1e, 0xff, 0xe0, 0]) } };

describe('Mp4VideoWriter', () => {
  it('writes moov before mdat and keeps every sample’s own duration, the last one included', async () => {
    const writer = new Mp4VideoWriter({ width: 64, height: 36 });
    writer.add(chunk('key', 0), meta, 0, 600_000);
    writer.add(chunk('delta', 600_000), undefined, 600_000, 550_000);
    writer.add(chunk('delta', 1_150_000), undefined, 1_150_000, 2_000_000);
    const mp4 = await writer.finish();
    expect(writer.written).toBe(3);
    expect(topLevelBoxes(mp4)).toEqual(['ftyp', 'moov', 'mdat']);
    const seconds = trackSeconds(mp4);
    expect(seconds.stts).toBeCloseTo(3.15, 3);
    expect(seconds.mdhd).toBeCloseTo(3.15, 3);
  });

  it('rejects a stream that does not start with a keyframe, and takes no more chunks', async () => {
    const writer = new Mp4VideoWriter({ width: 64, height: 36 });
    writer.add(chunk('delta', 0), meta, 0, 500_000);
    writer.add(chunk('key', 500_000), meta, 500_000, 500_000);
    await expect(writer.finish()).rejects.toThrow(/key packet/);
    expect(writer.failure?.message).toMatch(/key packet/);
    expect(writer.written).toBe(0);
    await expect(writer.cancel()).resolves.toBeUndefined();
  });
});

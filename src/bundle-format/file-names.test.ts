import { describe, expect, it } from 'vitest';
import { frameFileName, isFrameFileName } from './file-names';

describe('frame file names', () => {
  it.each([
    [0, 'frames/frame_0001.jpeg'],
    [41, 'frames/frame_0042.jpeg'],
    [9_999, 'frames/frame_10000.jpeg'],
  ])('frame %i is %s', (index, name) => {
    expect(frameFileName(index)).toBe(name);
    expect(isFrameFileName(name)).toBe(true);
  });

  it.each(['frames/frame_1.jpeg', 'frames/frame_0001.png', 'frame_0001.jpeg', 'frames/../frame_0001.jpeg', 'x/frames/frame_0001.jpeg', 'https://x.test/frames/frame_0001.jpeg'])(
    'does not take %s for a frame',
    (name) => expect(isFrameFileName(name)).toBe(false),
  );
});

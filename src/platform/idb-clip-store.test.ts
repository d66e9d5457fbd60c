import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createIdbClipStorage, deleteClip, readClip, writeClip } from './idb-clip-store';
import { IdbFrameStore } from './idb-frame-store';

describe('idb clip store', () => {
  it('writes, reads and deletes a clip by job id', async () => {
    await writeClip('job-a', new Uint8Array([1, 2, 3]));
    expect(await readClip('job-a')).toEqual(new Uint8Array([1, 2, 3]));
    await deleteClip('job-a');
    expect(await readClip('job-a')).toBeUndefined();
  });

  it('stores only the viewed bytes of a larger buffer', async () => {
    const buffer = new Uint8Array([9, 9, 4, 5, 9]);
    await writeClip('job-b', buffer.subarray(2, 4));
    expect(await readClip('job-b')).toEqual(new Uint8Array([4, 5]));
  });

  it('reads frames from the frame store', async () => {
    const frames = new IdbFrameStore();
    const meta = await frames.add(
      { tabId: 1, windowId: 1, url: null, ts: 0, size: 2, width: 1, height: 1 },
      new Uint8Array([0xff, 0xd8]),
    );
    const storage = createIdbClipStorage(frames);
    expect(await storage.readJpeg(meta.key)).toEqual(new Uint8Array([0xff, 0xd8]));
    expect(await storage.readJpeg(meta.key + 100)).toBeUndefined();
  });
});

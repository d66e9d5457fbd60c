import { beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeClipOffscreen } from './clip-port';
import { deleteClip, encodeClip, readClip } from './offscreen-client';

vi.mock('./offscreen-client', () => ({
  encodeClip: vi.fn(),
  readClip: vi.fn(),
  deleteClip: vi.fn(async () => {}),
  warmupClipEncoder: vi.fn(),
}));

const MP4 = new Uint8Array([0, 0, 0, 8, 0x66, 0x74, 0x79, 0x70]);
const done = { ok: true as const, job_id: 'job-1', size_bytes: 8, duration_seconds: 1.5, encoder: 'webcodecs/avc1.42001f', encode_ms: 30 };

describe('encodeClipOffscreen', () => {
  beforeEach(() => vi.clearAllMocks());

  it('reads the mp4 from the clip store and removes it there', async () => {
    vi.mocked(encodeClip).mockResolvedValue(done);
    vi.mocked(readClip).mockResolvedValue(MP4);
    expect(await encodeClipOffscreen('job-1', [{ key: 1, duration_ms: 500 }])).toEqual({ ok: true, mp4: MP4, durationSeconds: 1.5, encoder: done.encoder });
    expect(deleteClip).toHaveBeenCalledWith('job-1');
  });

  it('takes the mp4 from the answer when the clip store had no room for it', async () => {
    vi.mocked(encodeClip).mockResolvedValue({ ...done, mp4_base64: Buffer.from(MP4).toString('base64') });
    expect(await encodeClipOffscreen('job-1', [{ key: 1, duration_ms: 500 }])).toEqual({ ok: true, mp4: MP4, durationSeconds: 1.5, encoder: done.encoder });
    expect(readClip).not.toHaveBeenCalled();
  });
});

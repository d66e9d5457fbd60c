import { describe, expect, it, vi } from 'vitest';
import { createOffscreenHandler } from './offscreen-handler';
import type { EncodeJobDeps } from './encode-job';
import { ClipWarmupResultSchema } from '../../schemas/messages';

function deps(warmup?: () => Promise<void>): EncodeJobDeps {
  let clock = 0;
  return {
    storage: { readJpeg: () => Promise.resolve(undefined), writeClip: () => Promise.resolve() },
    encoder: { name: 'fake', warmup, encode: () => Promise.reject(new Error('unused')) },
    now: () => (clock += 120),
  };
}

describe('createOffscreenHandler', () => {
  it.each([
    ['a background message', { type: 'step/observed' }],
    ['a malformed encode', { type: 'clip/encode', job_id: 'j', frames: [] }],
    ['a string', 'clip/encode'],
    ['nothing', undefined],
  ])('ignores %s', (_name, raw) => {
    expect(createOffscreenHandler(deps())(raw)).toBeUndefined();
  });

  it('answers an encode with a result', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const answer = createOffscreenHandler(deps())({ type: 'clip/encode', job_id: 'j', frames: [{ key: 1, duration_ms: 100 }] });
    await expect(answer).resolves.toEqual({ ok: false, job_id: 'j', error: 'none of the 1 frames could be read' });
  });

  it('warms the encoder up', async () => {
    const warmup = vi.fn(() => Promise.resolve());
    const answer = await createOffscreenHandler(deps(warmup))({ type: 'clip/warmup' });
    expect(warmup).toHaveBeenCalledOnce();
    expect(ClipWarmupResultSchema.parse(answer)).toEqual({ ok: true, encoder: 'fake', load_ms: 120 });
  });

  it('reports a failed warmup', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const answer = await createOffscreenHandler(deps(() => Promise.reject(new Error('no wasm'))))({ type: 'clip/warmup' });
    expect(answer).toEqual({ ok: false, error: 'no wasm' });
  });
});

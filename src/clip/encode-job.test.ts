import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClipEncodeResultSchema, type ClipEncodeMessage } from '../../schemas/messages';
import { encodeJobBudgetMs, runEncodeJob, type EncodeJobDeps } from './encode-job';
import type { ClipEncoder, ClipFrame, ClipStorage } from './ports';

const jpeg = new Uint8Array(readFileSync(new URL('../../test/fixtures/clip/baseline-64x36.jpeg', import.meta.url)));

function fakeStorage(keys: number[]): ClipStorage & { clips: Map<string, Uint8Array> } {
  const clips = new Map<string, Uint8Array>();
  return {
    clips,
    readJpeg: (key) => Promise.resolve(keys.includes(key) ? jpeg : undefined),
    writeClip: (jobId, mp4) => {
      clips.set(jobId, mp4);
      return Promise.resolve();
    },
  };
}

function fakeEncoder(encode: ClipEncoder['encode'] = () => Promise.resolve({ mp4: new Uint8Array(10), durationSeconds: 1.5 })) {
  return { name: 'fake', encode: vi.fn(encode) };
}

function deps(overrides: Partial<EncodeJobDeps> = {}): EncodeJobDeps {
  let clock = 1000;
  return { storage: fakeStorage([1, 2, 3]), encoder: fakeEncoder(), now: () => (clock += 40), ...overrides };
}

const message = (keys: number[]): ClipEncodeMessage => ({
  type: 'clip/encode',
  job_id: 'job-1',
  frames: keys.map((key) => ({ key, duration_ms: 500 })),
});

describe('runEncodeJob', () => {
  afterEach(() => vi.useRealTimers());

  it('encodes the stored frames, stores the mp4 and reports it', async () => {
    const storage = fakeStorage([1, 2, 3]);
    const encoder = fakeEncoder();
    const result = await runEncodeJob(message([1, 2, 3]), deps({ storage, encoder }));

    expect(result).toEqual({ ok: true, job_id: 'job-1', size_bytes: 10, duration_seconds: 1.5, encoder: 'fake', encode_ms: 40 });
    expect(ClipEncodeResultSchema.parse(result)).toEqual(result);
    expect(storage.clips.get('job-1')).toHaveLength(10);
    expect(encoder.encode).toHaveBeenCalledWith([1, 2, 3].map(() => ({ jpeg, durationMs: 500 })));
  });

  it('takes a frame kept in memory from the message, and answers with the mp4 when the clip store is out of quota', async () => {
    const storage = fakeStorage([1]);
    storage.writeClip = () => Promise.reject(Object.assign(new Error(''), { name: 'QuotaExceededError' }));
    const encoder = fakeEncoder(() => Promise.resolve({ mp4: new Uint8Array([0, 0, 0, 8, 102, 116, 121, 112]), durationSeconds: 1 }));
    const msg: ClipEncodeMessage = {
      type: 'clip/encode',
      job_id: 'job-1',
      frames: [{ key: 1, duration_ms: 500 }, { key: 2 ** 53 - 2 ** 40, duration_ms: 500, jpeg_base64: Buffer.from(jpeg).toString('base64') }],
    };
    const result = await runEncodeJob(msg, deps({ storage, encoder }));
    expect(encoder.encode).toHaveBeenCalledWith([{ jpeg, durationMs: 500 }, { jpeg, durationMs: 500 }]);
    expect(ClipEncodeResultSchema.parse(result)).toMatchObject({ ok: true, mp4_base64: Buffer.from([0, 0, 0, 8, 102, 116, 121, 112]).toString('base64') });
  });

  it('fails the job when the clip store fails for another reason than quota', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const storage = fakeStorage([1]);
    storage.writeClip = () => Promise.reject(new Error('the database connection is closing'));
    expect(await runEncodeJob(message([1]), deps({ storage }))).toEqual({ ok: false, job_id: 'job-1', error: 'the database connection is closing' });
  });

  it('reports the encoder the clip names (the codec chosen, or a fallback and why)', async () => {
    const encoder = fakeEncoder(() => Promise.resolve({ mp4: new Uint8Array(10), durationSeconds: 1.5, encoder: 'webcodecs/avc1.42001f' }));
    const result = await runEncodeJob(message([1]), deps({ encoder }));
    expect(result).toMatchObject({ ok: true, encoder: 'webcodecs/avc1.42001f' });
  });

  it('skips evicted frames and keeps their time', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const encoder = fakeEncoder();
    await runEncodeJob(message([1, 9, 2]), deps({ encoder }));
    const frames: ClipFrame[] = encoder.encode.mock.calls[0]?.[0] as ClipFrame[];
    expect(frames.map((frame) => frame.durationMs)).toEqual([1000, 500]);
  });

  it.each([
    ['no frame can be read', deps(), [7, 8], 'none of the 2 frames could be read'],
    ['the encoder throws', deps({ encoder: fakeEncoder(() => Promise.reject(new Error('exit code 1'))) }), [1], 'exit code 1'],
    ['the encoder rejects with a string', deps({ encoder: fakeEncoder(() => Promise.reject('worker said no')) }), [1], 'worker said no'],
    [
      'the encoder returns nothing',
      deps({ encoder: fakeEncoder(() => Promise.resolve({ mp4: new Uint8Array(0), durationSeconds: 0 })) }),
      [1],
      'fake produced an empty file',
    ],
  ])('answers ok: false when %s', async (_name, jobDeps, keys, error) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const result = await runEncodeJob(message(keys), jobDeps);
    expect(result).toEqual({ ok: false, job_id: 'job-1', error });
    expect(ClipEncodeResultSchema.parse(result)).toEqual(result);
    expect(console.error).toHaveBeenCalled();
  });

  it('gives up on a job that hangs', async () => {
    vi.useFakeTimers();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const hanging = deps({ encoder: fakeEncoder(() => new Promise(() => undefined)) });
    const result = runEncodeJob(message([1]), hanging);
    await vi.advanceTimersByTimeAsync(encodeJobBudgetMs(1));
    await expect(result).resolves.toMatchObject({ ok: false, error: expect.stringMatching(/timed out/) });
  });
});

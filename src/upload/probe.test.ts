import { describe, expect, it } from 'vitest';
import { UploadSettingsSchema } from '../../schemas/upload';
import { FakeS3 } from '../../test/fakes/s3-store';
import { probeUpload } from './probe';

const credentials = { accessKeyId: 'AKIDFLEET', secretAccessKey: 'fleet-secret', region: 'us-east-1' };
const clock = { now: () => 1_764_000_000_000 };
const upload = (over: Record<string, unknown> = {}) =>
  UploadSettingsSchema.parse({ mode: 's3', s3: { endpoint: 'http://127.0.0.1:9000', bucket: 'runs', prefix: 'ci', ...credentials, ...over } });

describe('probeUpload', () => {
  it('writes and deletes a probe object under the prefix', async () => {
    const store = new FakeS3('runs', credentials);
    expect(await probeUpload(upload(), store.fetch, clock)).toEqual({ ok: true, message: 'Wrote and deleted ci/probes/afr-probe-1764000000000.txt in bucket runs at http://127.0.0.1:9000.' });
    expect(store.requests.map((r) => `${r.method} ${r.key}`)).toEqual(['PUT ci/probes/afr-probe-1764000000000.txt', 'DELETE ci/probes/afr-probe-1764000000000.txt']);
    expect(store.objects.size).toBe(0);
  });

  it.each([
    ['a wrong secret', upload({ secretAccessKey: 'nope' }), new FakeS3('runs', credentials), /^The store refused the signature: the secret access key does not belong to AKIDFLEET/],
    ['a missing bucket', upload(), new FakeS3('other', credentials), /^There is no bucket runs at http:\/\/127\.0\.0\.1:9000/],
    ['a refused connection', upload(), Object.assign(new FakeS3('runs', credentials), { down: true }), /^Could not reach bucket runs at .*: the name did not resolve, TLS failed, the connection was refused/],
  ])('says in plain words what failed: %s', async (_, settings, store, message) => {
    const result = await probeUpload(settings, store.fetch, clock);
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(message);
  });

  it('says when delivery is off', async () => {
    expect(await probeUpload(UploadSettingsSchema.parse({}), new FakeS3('runs', credentials).fetch, clock)).toEqual({ ok: false, message: 'Delivery is off: choose s3 or presigned first.' });
  });
});

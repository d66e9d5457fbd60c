import { z } from 'zod';
import { confirmPut } from './confirm';
import { probeObject } from './probe-object';
import type { Fetch, ObjectPut, ObjectTarget } from './ports';
import { networkError, storeError, UploadError } from './upload-error';

/** What the team's presign service answers: where to PUT the object, and the headers its signature covers. */
const PresignAnswerSchema = z.object({ url: z.url({ protocol: /^https?$/ }), headers: z.record(z.string(), z.string()).default({}) });

/**
 * Writes objects through the team's own presign service (`upload.presigned.endpoint`): the recorder asks
 * `POST {bundleId, sizeBytes, sha256, kind}` and PUTs the bytes to the URL it gets back, so no long-lived
 * secret is ever in the browser. Whole objects only (a presigned URL names one PUT).
 */
export function presignedTarget(endpoint: string, fetchFn: Fetch): ObjectTarget {
  const presign = async (object: Pick<ObjectPut, 'bundleId' | 'kind' | 'key'> & { sizeBytes: number; sha256: string }) => {
    const what = `asking ${endpoint} where to write the ${object.kind} of ${object.bundleId}`;
    let response: Response;
    try {
      response = await fetchFn(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ bundleId: object.bundleId, sizeBytes: object.sizeBytes, sha256: object.sha256, kind: object.kind, key: object.key }),
      });
    } catch (error) {
      throw networkError(what, error);
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) throw storeError(what, response.status, text);
    let answer: z.infer<typeof PresignAnswerSchema>;
    try {
      answer = PresignAnswerSchema.parse(JSON.parse(text));
    } catch {
      throw new UploadError('config', `${what}: the answer is not {url, headers}`);
    }
    return answer;
  };

  const put = async (object: ObjectPut) => {
    const { url, headers } = await presign({ ...object, sizeBytes: object.body.byteLength, sha256: object.sums.sha256Hex });
    const what = `writing the ${object.kind} of ${object.bundleId}`;
    let response: Response;
    try {
      response = await fetchFn(url, { method: 'PUT', headers: { 'content-type': object.contentType, ...headers }, body: object.body as BodyInit });
    } catch (error) {
      throw networkError(what, error);
    }
    if (!response.ok) throw storeError(what, response.status, await response.text().catch(() => ''));
    confirmPut(what, response, object.sums);
  };

  return {
    multipart: null,
    put,
    async probe(key) {
      await put(await probeObject(key));
    },
  };
}

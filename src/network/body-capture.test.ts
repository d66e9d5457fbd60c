import { describe, expect, it } from 'vitest';
import { BUILT_IN_MASKER } from '../redact/mask-text';
import { captureBody } from './body-capture';
import { maskContext } from './withheld-value';

const b64 = (bytes: number[]) => btoa(String.fromCharCode(...bytes));

describe('captureBody', () => {
  it('masks a text body and says its decoded size', async () => {
    expect(await captureBody({ body: '{"token":"abcdefgh12345678","n":"é"}', base64Encoded: false }, 'application/json', 1024, maskContext(BUILT_IN_MASKER))).toEqual({
      size: 37,
      text: '{"token":"[redacted 8+]","n":"é"}',
    });
  });

  it('decodes a base64 text body', async () => {
    expect(await captureBody({ body: btoa('hello'), base64Encoded: true }, 'text/plain', 1024, maskContext(BUILT_IN_MASKER))).toEqual({ size: 5, text: 'hello' });
  });

  it('leaves out a body that is not valid UTF-8, keeping its size and SHA-256', async () => {
    const out = await captureBody({ body: b64([0x7b, 0xff, 0xfe, 0x7d]), base64Encoded: true }, 'application/json', 1024, maskContext(BUILT_IN_MASKER));
    expect(out).toEqual({ size: 4, omitted: 'not_utf8', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('hashes a body left out for its size', async () => {
    const out = await captureBody({ body: JSON.stringify({ a: 'x'.repeat(5000) }), base64Encoded: false }, 'application/json', 1024, maskContext(BUILT_IN_MASKER));
    expect(out.omitted).toBe('too_large');
    expect(out.text).toBeUndefined();
    expect(out.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});

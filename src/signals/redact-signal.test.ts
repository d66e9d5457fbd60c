import { describe, expect, it } from 'vitest';
import { redactSignal } from './redact-signal';
import { signalFromRaw } from './normalize-signal';
import { BUILT_IN_MASKER } from '../redact/mask-text';

describe('redactSignal', () => {
  it('masks secrets in the message, stack, page URL and request URL of a signal', () => {
    const signal = signalFromRaw({
      kind: 'http_5xx',
      tabId: 1,
      pageUrl: 'https://shop.test/pay?email=jane.doe@example.com&token=abc123secret',
      ts: 1,
      origin: 'debugger',
      message: 'Error: card 4111 1111 1111 1111 declined for jane.doe@example.com at https://shop.test/api?session=s3cr3tsession',
      stack: 'Error: card 4111 1111 1111 1111 declined\n    at pay (https://shop.test/app.js?key=k3y9:1:1)',
      request: { url: 'https://shop.test/api/pay?access_token=tok_998877', method: 'POST', status: 502, resourceType: 'Fetch', durationMs: 5, errorText: null },
    });
    const text = JSON.stringify(redactSignal(signal, BUILT_IN_MASKER));
    for (const secret of ['4111 1111 1111 1111', 'jane.doe@example.com', 'abc123secret', 's3cr3tsession', 'k3y9', 'tok_998877']) expect(text).not.toContain(secret);
    expect(redactSignal(signal, BUILT_IN_MASKER).message).toMatch(/^Error: card .+ declined for .+/);
    expect(redactSignal(signal, BUILT_IN_MASKER).request?.url).toMatch(/^https:\/\/shop\.test\/api\/pay\?access_token=/);
  });
});

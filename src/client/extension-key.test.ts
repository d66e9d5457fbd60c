import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RECORDER_EXTENSION_ID, RECORDER_PUBLIC_KEY } from './extension-key';

/** Chrome's id rule: sha256 of the DER public key, first 32 hex digits, each digit d written as 'a' + d. */
function extensionIdOf(base64Der: string): string {
  const hex = createHash('sha256').update(Buffer.from(base64Der, 'base64')).digest('hex').slice(0, 32);
  return [...hex].map((digit) => String.fromCharCode(97 + parseInt(digit, 16))).join('');
}

describe('the pinned extension id', () => {
  it('is the id Chrome derives from the manifest key', () => {
    expect(extensionIdOf(RECORDER_PUBLIC_KEY)).toBe(RECORDER_EXTENSION_ID);
  });
});

import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64, dataUrlToBytes } from './base64';

describe('base64', () => {
  it('round-trips large binary data', () => {
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 7919) % 256);
    const text = bytesToBase64(bytes);
    expect(text).toBe(Buffer.from(bytes).toString('base64'));
    expect(base64ToBytes(text)).toEqual(bytes);
  });

  it('reads data URLs and rejects anything else', () => {
    expect([...dataUrlToBytes('data:image/jpeg;base64,/9j/')]).toEqual([0xff, 0xd8, 0xff]);
    expect(() => dataUrlToBytes('https://example.test/x.jpeg')).toThrow(/data URL/);
    expect(() => dataUrlToBytes('data:text/plain,hello')).toThrow(/data URL/);
  });
});

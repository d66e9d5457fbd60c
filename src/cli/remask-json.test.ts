import { describe, expect, it } from 'vitest';
import { createRemasker, fixedWords, remaskJson, totalMasked } from './remask-json';

describe('remaskJson', () => {
  const { mask, counts } = createRemasker([/ORD-\d{6}/gu, /acme/giu]);
  const masker = (text: string) => mask(text);

  it('masks strings only: keys, numbers, booleans, null and the shape stay', () => {
    const value = { 'ghp_R2d2C3poX9y8w7v6u5t4s3r2q1p0o9n8m7': 1, list: ['mail jane@example.com', 42, true, null, { nested: 'ORD-123456 for ACME' }], n: 4111111111111111 };
    expect(remaskJson(value, masker, () => false)).toEqual({
      'ghp_R2d2C3poX9y8w7v6u5t4s3r2q1p0o9n8m7': 1,
      list: ['mail [email]', 42, true, null, { nested: '[redacted] for [redacted]' }],
      n: 4111111111111111,
    });
    expect(counts.patterns).toEqual([1, 1]);
    expect(counts.kinds).toMatchObject({ email: 1, custom: 2 });
    expect(totalMasked(counts)).toBe(3);
  });

  it('masks session cookies a debug panel printed in a bundle written before they were detected', () => {
    const { mask, counts } = createRemasker([]);
    const text = 'Cookie: sessionid=k2j3h4k5j6h7g8f9; theme=dark\nSet-Cookie: PHPSESSID=9c1b2a7f8e6d5c4b3a; Path=/; HttpOnly';
    expect(remaskJson({ text }, mask, () => false)).toEqual({
      text: 'Cookie: sessionid=[credential]; theme=[credential]\nSet-Cookie: PHPSESSID=[credential]; Path=/; HttpOnly',
    });
    expect(counts.kinds.credential).toBe(2);
  });

  it('leaves the strings `keep` names as they are', () => {
    expect(remaskJson(['ORD-123456', 'x ORD-123456'], masker, (text) => text === 'ORD-123456')).toEqual(['ORD-123456', 'x [redacted]']);
  });
});

describe('fixedWords', () => {
  it('collects the strings of every enum and const, at any depth', () => {
    const schema = { properties: { status: { enum: ['failure', 'success', 3] }, clip: { anyOf: [{ properties: { name: { const: 'failure.mp4' } } }, { type: 'null' }] }, version: { const: 2 } } };
    expect([...fixedWords([schema])].sort()).toEqual(['failure', 'failure.mp4', 'success']);
  });
});

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bareEtag, checksumsOf, multipartEtag } from './checksums';

const bytes = new TextEncoder().encode('a bundle zip, or close enough');

describe('checksumsOf', () => {
  it('agrees with node:crypto on SHA-256 and MD5, in hex and base64', async () => {
    const sums = await checksumsOf(bytes);
    expect(sums.sha256Hex).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(sums.sha256Base64).toBe(createHash('sha256').update(bytes).digest('base64'));
    expect(sums.md5Hex).toBe(createHash('md5').update(bytes).digest('hex'));
    expect(sums.md5Base64).toBe(createHash('md5').update(bytes).digest('base64'));
  });

  it('hashes a view into a larger buffer by its own bytes only', async () => {
    const big = new Uint8Array(100).fill(7);
    big.set(bytes, 10);
    const view = big.subarray(10, 10 + bytes.length);
    expect(await checksumsOf(view)).toEqual(await checksumsOf(bytes));
  });
});

describe('multipartEtag', () => {
  it('is the MD5 of the parts’ binary MD5s and their count, as S3 computes it', () => {
    const parts = [Buffer.from('part one'), Buffer.from('part two')];
    const md5s = parts.map((p) => createHash('md5').update(p).digest());
    const expected = `${createHash('md5').update(Buffer.concat(md5s)).digest('hex')}-2`;
    expect(multipartEtag(md5s.map((m) => m.toString('hex')))).toBe(expected);
  });
});

describe('bareEtag', () => {
  it('drops quotes, the weak marker and case', () => {
    expect(bareEtag('"ABC123"')).toBe('abc123');
    expect(bareEtag('W/"abc-2"')).toBe('abc-2');
    expect(bareEtag(null)).toBeNull();
  });
});

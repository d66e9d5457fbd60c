import { describe, expect, it } from 'vitest';
import { parseByteSize } from './parse-byte-size';

describe('parseByteSize', () => {
  it.each([
    ['65536', 65_536],
    ['1k', 1024],
    ['512M', 512 * 1024 ** 2],
    ['2G', 2 * 1024 ** 3],
    ['1.5GiB', 1.5 * 1024 ** 3],
    ['300 MB', 300 * 1024 ** 2],
  ])('%s is %d bytes', (text, bytes) => {
    expect(parseByteSize(text)).toBe(bytes);
  });

  it.each(['', '0', '-5', 'lots', '5T', '1e9', 'M'])('%j is not a size', (text) => {
    expect(parseByteSize(text)).toBeNull();
  });
});
